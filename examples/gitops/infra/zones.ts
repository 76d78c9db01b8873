// The account's zones: `npx --no-install cdn-zones import --out zones.ts` replaces this file (examples/gitops/README.md).
export {};
