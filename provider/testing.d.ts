export * from "./dist/testing";
