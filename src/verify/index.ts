// pi-fold/verify: the reusable verifier, usable with no Pi installed (package export `pi-fold/verify`,
// bundled to build/verify.js). Hash bytes, streams and files; store blobs atomically in a
// content-addressed layout with chunk trees for large blobs; verify a whole store, one blob, or a
// bounded range of a blob. Engines (node:crypto vs the Wasm core) are chosen per shape by measurement
// (engines.ts, docs/verifier.md). hashFile, writeBlob, verify* and readVerifiedRange do file I/O.

export {
	IntegrityError,
	loadTree,
	readVerifiedRange,
	type VerifiedRange,
	type VerifyBlobResult,
	verifyBlob,
} from "./blob.ts";
export {
	type BatchCost,
	type ConcreteEngine,
	type EngineCalibration,
	engineCalibration,
	measureEngines,
	setEngineCalibration,
} from "./engines.ts";
export { createSha256, hashFile, type Sha256Hasher, sha256, sha256Hex, sha256Many } from "./hash.ts";
export { BLOB_MODE, chunkDigestsOf, DIR_MODE, type WrittenBlob, writeBlob } from "./ingest.ts";
export { BLOBS_DIR, blobPath, blobRelPath, isDigestHex, TMP_DIR, TREE_SUFFIX, toHex, treePath } from "./layout.ts";
export {
	DEFAULT_BATCH_BLOBS,
	DEFAULT_BATCH_BYTES,
	DEFAULT_CHUNK_SIZE,
	DEFAULT_CHUNKS_PER_TASK,
	DEFAULT_READ_SIZE,
	DEFAULT_TREE_MIN_BYTES,
	DEFAULT_WORKERS,
	type EngineName,
	type HashFileOptions,
	type ReadRangeOptions,
	type VerifyBlobOptions,
	type VerifyProgress,
	type VerifyStoreOptions,
	type WriteBlobOptions,
} from "./options.ts";
export { closeSharedPools, DEFAULT_POOL_IDLE_MS, sharedPool, VerifyPool } from "./pool.ts";
export { type IssueKind, NotAStoreError, type StoreIssue, type VerifyStoreResult, verifyStore } from "./store.ts";
export { type ChunkTree, decodeTree, encodeTree, makeTree, TreeFormatError, treeRoot } from "./tree.ts";
export { isVerifyWorker } from "./worker.ts";
