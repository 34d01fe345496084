// The narrow interfaces the Pi runtime depends on, so each piece can be built and tested on its own:
// the verified fold store (implemented by src/store's FoldStore) and the out-of-band notifier.
// Types only; no I/O here.

/** Where exact fold sources live: content-addressed by SHA-256, every read verified. */
export interface SourceStore {
	/** Writes `source` (idempotent); resolves once it is durable. */
	put(source: string): Promise<{ sha256: string; bytes: number }>;
	/**
	 * Reads and verifies the whole source; rejects naming `label` and both digests on a mismatch. With
	 * `expectedBytes` (the size the fold recorded), a blob of another size is refused unopened.
	 */
	read(sha256: string, label: string, expectedBytes?: number): Promise<string>;
	/** A verified slice snapped to UTF-8 boundaries: byte range [start, end) of totalBytes. `expectedBytes` as for read. */
	readSlice(
		sha256: string,
		offset: number,
		bytes: number,
		label: string,
		expectedBytes?: number,
	): Promise<{ text: string; start: number; end: number; totalBytes: number }>;
}

/** Tells the human something out of band (never into the model's window). */
export type Notify = (message: string, level: "info" | "warning" | "error") => void;
