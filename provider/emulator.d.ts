export * from "./dist/emulator";
