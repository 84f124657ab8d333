// fake-indexeddb's "./auto" export (it only installs the globals) ships its types outside its
// package.json "exports", so TypeScript cannot find them for a dynamic import.
declare module "fake-indexeddb/auto";
