// pi-fold/verify: the reusable verifier, usable with no Pi installed (package export `pi-fold/verify`,
// bundled to build/verify.js). Hash bytes, streams and files; store blobs atomically in a
// content-addressed layout with chunk trees for large blobs; verify a whole store, one blob, or a
// bounded range of a blob. The hashing functions are pi-fold's one hashing API (src/wasm/hash-api.ts),
// re-exported here: engines (node:crypto vs the Wasm core) are chosen per shape by measurement
// (src/wasm/engines.ts), cached per machine (calibration-cache.ts, docs/verifier.md). Every store
// read is checked first and bounded (safe-open.ts). hashFile, writeBlob*, verify*, readVerifiedRange,
// sweepStaleTemp and the calibration cache do file I/O.

export {
	type BatchCost,
	type ConcreteEngine,
	createSha256,
	type EngineCalibration,
	engineCalibration,
	measureEngines,
	type Sha256Hasher,
	setEngineCalibration,
	sha256,
	sha256Hex,
	sha256Many,
} from "../wasm/index.ts";
export {
	IntegrityError,
	loadTree,
	readVerifiedRange,
	type VerifiedRange,
	type VerifyBlobResult,
	verifyBlob,
} from "./blob.ts";
export {
	CALIBRATION_CACHE_VERSION,
	CALIBRATION_MAX_AGE_MS,
	type CachedCalibration,
	cachedEngineCalibration,
	calibrationCacheDir,
	calibrationKey,
} from "./calibration-cache.ts";
export { hashFile } from "./hash-file.ts";
export {
	type BatchOptions,
	type BatchOutcome,
	closeSharedPools,
	DEFAULT_POOL_IDLE_MS,
	sharedPool,
	VerifyPool,
} from "./hash-pool.ts";
export { BLOB_MODE, chunkDigestsOf, DIR_MODE, type WrittenBlob, writeBlob, writeBlobStream } from "./ingest.ts";
export { BLOBS_DIR, blobPath, blobRelPath, isDigestHex, TMP_DIR, TREE_SUFFIX, toHex, treePath } from "./layout.ts";
export {
	buildFoldTree,
	decodeManifest,
	encodeManifest,
	type FoldTree,
	looksLikeManifest,
	MANIFEST_FANOUT,
	MANIFEST_MAGIC_BYTES,
	MANIFEST_MAX_BYTES,
	MANIFEST_MAX_CHILDREN,
	MANIFEST_MAX_ID_CHARS,
	type Manifest,
	type ManifestChild,
	ManifestFormatError,
} from "./manifest.ts";
export {
	checkedOpen,
	type FileProblem,
	FileRefusedError,
	kindOf,
	MAX_READ_CALL,
	type OpenExpectation,
	openListed,
	readAt,
	readSmallFile,
} from "./safe-open.ts";
export { checkedOpenAsync, readAtAsync } from "./safe-open-async.ts";
export { type IssueKind, NotAStoreError, type StoreIssue, type VerifyStoreResult, verifyStore } from "./store.ts";
export { DigestList, MAX_SIDECAR_BYTES } from "./store-scan.ts";
export type { FileFailure, Task, TaskResult } from "./tasks.ts";
export { DEFAULT_TEMP_MAX_AGE_MS, processAlive, type SweepResult, sweepStaleTemp } from "./tmp-sweep.ts";
export { type ChunkTree, decodeTree, encodeTree, makeTree, TreeFormatError, treeRoot } from "./tree.ts";
export {
	DEFAULT_BATCH_BLOBS,
	DEFAULT_BATCH_BYTES,
	DEFAULT_CHUNK_SIZE,
	DEFAULT_CHUNKS_PER_TASK,
	DEFAULT_MIN_PARALLEL_BYTES,
	DEFAULT_READ_SIZE,
	DEFAULT_TREE_MIN_BYTES,
	DEFAULT_WORKERS,
	type EngineName,
	FILE_COST_BYTES,
	HASH_FILE_READ_SIZE,
	type HashFileOptions,
	type ReadRangeOptions,
	type VerifyBlobOptions,
	type VerifyMode,
	type VerifyProgress,
	type VerifyStoreOptions,
	type WriteBlobOptions,
} from "./verify-options.ts";
export { isVerifyWorker } from "./verify-worker.ts";
