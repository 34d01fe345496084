// pi-fold/store: the public face of the on-disk layer (src/verify does the hashing and layout).
// - FoldStore: fold sources content-addressed by SHA-256, atomic 0444 writes in 0700 folders, every
//   read verified (whole, or by the touched chunks of a pinned chunk tree for bounded slices);
//   SourceVerificationError names the fold label and both digests. A fold's source is stored as a
//   Merkle manifest over its entries (src/verify/manifest.ts), each entry once (tree-read.ts reads it
//   bounded); a source written in the old single-blob form is read as before.
// - resolveStoreDir: `<sessionDir>/<storeDirName>`, or a per-user fallback under os.tmpdir() keyed
//   by session id for in-memory sessions.
// - FileChecker: whether a file on disk still holds the text a folded read returned (stat-cached).
// - search/: hash-verified search over stored sources (one read per blob: hashed and scanned
//   together), on worker threads with a time bound; FoldStore.search uses it.
// - collectGarbage (gc.ts): lists, and removes past a retention, the blobs no session file of the
//   sessions folder references (directly or through a manifest), after verifying what stays.
// The classes and collectGarbage do file I/O; resolveStoreDir is pure.

export { buildFoldTree, looksLikeManifest, type Manifest } from "../verify/index.ts";
export { defaultFallbackRoot, resolveStoreDir, sessionKey } from "./dir.ts";
export { FileChecker, type FileState, resolveReadPath } from "./file-check.ts";
export { FoldStore } from "./fold-store.ts";
export type { ManifestShown, VerifyEvent } from "./fold-store-options.ts";
export { collectGarbage } from "./gc.ts";
export * from "./search/index.ts";
export { SourceVerificationError } from "./source-error.ts";
export type { StoreUsage } from "./store-usage.ts";
export { type BlobAccess, readManifest, treeBytes, treeSlice } from "./tree-read.ts";
