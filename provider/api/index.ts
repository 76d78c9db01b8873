/** The wire layer: client, errors, configuration and shared wire shapes. Knows nothing of Pulumi. */
export * from "./auth";
export * from "./client";
export * from "./config";
export * from "./errors";
export * from "./methods";
export * from "./wire";
export { isXmlSafe, isYmd, toYmd } from "./encode";
