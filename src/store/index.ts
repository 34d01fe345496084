// pi-fold/store: the public face of the on-disk layer (src/verify does the hashing and layout).
// - FoldStore: fold sources content-addressed by SHA-256, atomic 0444 writes in 0700 folders, every
//   read verified (whole, or by the touched chunks of a pinned chunk tree for bounded slices);
//   SourceVerificationError names the fold label and both digests.
// - resolveStoreDir: `<sessionDir>/<storeDirName>`, or a per-user fallback under os.tmpdir() keyed
//   by session id for in-memory sessions.
// - FileChecker: whether a file on disk still holds the text a folded read returned (stat-cached).
// - search/: hash-verified search over stored sources (one read per blob: hashed and scanned
//   together), on worker threads with a time bound; FoldStore.search uses it.
// The classes do file I/O; resolveStoreDir is pure.

export { defaultFallbackRoot, resolveStoreDir, sessionKey } from "./dir.ts";
export { FILE_CHECK_MAX_BYTES, FileChecker, type FileState, type ReadStamp, resolveReadPath } from "./file-check.ts";
export {
	FoldStore,
	type FoldStoreOptions,
	MAX_SOURCE_TEXT_BYTES,
	type SourceFailure,
	SourceVerificationError,
	type VerifyEvent,
} from "./fold-store.ts";
export * from "./search/index.ts";
