// The account's zones: `npx cdn-zones import --out zones.ts` replaces this file (examples/gitops/README.md).
export {};
