// Evidence artifacts: read-only copies of oversized tool results under a session's evidence folder
// (`<sessionDir>/pi-fold-evidence/`, see resolveStoreDir), each owner's artifacts a content-addressed
// store with the verifier's layout (atomic writes, files 0444, directories 0700):
//
//   <dir>/mcp/<server>/sha256/<2 hex>/<64 hex>      results of an MCP server's tools
//   <dir>/ns/<namespace>/sha256/<2 hex>/<64 hex>    everything else (namespace from entryTypePrefix)
//   <dir>/sessions/<session key>.ledger             what each session stored (evidence-ledger.ts)
//   (.tree sidecars beside artifacts > 4 MiB; tmp/ folders for in-flight writes)
//
// The cap (DEFAULT_EVIDENCE_CAP_BYTES, 512 MiB) is per SESSION, counted by session id in the
// session's ledger, cumulative over every artifact the session stored (not per artifact): a write that
// would cross it is refused whole (never truncated). Sessions sharing a folder each have their own cap
// (a new session is never refused for another's usage), and two processes of one session cannot
// overshoot it together (the ledger's reservations are decided in file order). An artifact the session
// already stored is not charged again; one another session stored is charged to this one too (stored
// once on disk). Artifacts written before ledgers existed are charged to no session. Opening the
// store (first put or usage) sweeps each owner's tmp/ of a killed writer's leftovers. Reads are
// verified and checked before opening, as for fold sources. This module does its own file I/O.

import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { BLOBS_DIR, sha256Hex, sweepStaleTemp, writeBlob } from "../verify/index.ts";
import { sessionKey } from "./dir.ts";
import { EvidenceLedger } from "./evidence-ledger.ts";
import { FoldStore } from "./fold-store.ts";

/** The per-session evidence cap: 512 MiB of artifact bytes, cumulative across all results. */
export const DEFAULT_EVIDENCE_CAP_BYTES = 512 * 1024 * 1024;

/** The session id a store without one is counted under. */
export const DEFAULT_EVIDENCE_SESSION = "default";

/** Who an artifact belongs to: an MCP server, or the neutral namespace derived from entryTypePrefix. */
export interface EvidenceOwner {
	readonly kind: "mcp" | "namespace";
	readonly name: string;
}

/** Outcome of EvidenceStore.put. `path` is relative to the evidence folder. */
export type EvidencePut =
	| { readonly status: "written" | "existing"; readonly sha256: string; readonly bytes: number; readonly path: string }
	| {
			readonly status: "refused";
			readonly bytes: number;
			readonly usedBytes: number;
			readonly capBytes: number;
			readonly reason: string;
	  };

/**
 * EvidenceStore options: `capBytes` per session (default DEFAULT_EVIDENCE_CAP_BYTES); `durable`
 * fsync (default true); `sessionId` the usage is counted under (default DEFAULT_EVIDENCE_SESSION).
 */
export interface EvidenceStoreOptions {
	readonly capBytes?: number;
	readonly durable?: boolean;
	readonly sessionId?: string;
}

const OWNER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const OWNER_FOLDER = { mcp: "mcp", namespace: "ns" } as const;

/** The folder of an owner's artifacts, relative to the evidence folder. */
export function ownerRelDir(owner: EvidenceOwner): string {
	if (!OWNER_NAME.test(owner.name)) throw new TypeError(`evidence owner name is not a plain name: ${owner.name}`);
	return `${OWNER_FOLDER[owner.kind]}/${owner.name}`;
}

/** A session's view of an evidence folder, with its cumulative per-session cap. */
export class EvidenceStore {
	readonly dir: string;
	readonly capBytes: number;
	readonly sessionId: string;
	private readonly durable: boolean;
	private readonly ledger: EvidenceLedger;
	private readonly inflight = new Map<string, Promise<EvidencePut>>();
	private opened: Promise<void> | undefined;

	constructor(dir: string, options: EvidenceStoreOptions = {}) {
		const cap = options.capBytes ?? DEFAULT_EVIDENCE_CAP_BYTES;
		if (!Number.isSafeInteger(cap) || cap < 0) throw new RangeError(`EvidenceStore: capBytes must be >= 0, got ${cap}`);
		this.dir = dir;
		this.capBytes = cap;
		this.durable = options.durable ?? true;
		this.sessionId = options.sessionId ?? DEFAULT_EVIDENCE_SESSION;
		this.ledger = new EvidenceLedger(dir, sessionKey(this.sessionId));
	}

	/** Artifact bytes charged against this session's cap. */
	async usage(): Promise<number> {
		await this.open();
		return this.ledger.usage();
	}

	/** Stores `data` (UTF-8) as an artifact of `owner`, or refuses it whole if it would cross the session's cap. */
	put(owner: EvidenceOwner, data: string): Promise<EvidencePut> {
		const rel = ownerRelDir(owner);
		const bytes = Buffer.from(data, "utf8");
		const sha = sha256Hex(bytes);
		const key = `${rel}/${sha}`;
		return this.open().then(() => {
			const running = this.inflight.get(key);
			if (running) return running;
			const job = this.store(rel, key, sha, bytes).finally(() => this.inflight.delete(key));
			this.inflight.set(key, job);
			return job;
		});
	}

	private async store(rel: string, key: string, sha: string, bytes: Uint8Array): Promise<EvidencePut> {
		const path = `${rel}/${BLOBS_DIR}/${sha.slice(0, 2)}/${sha}`;
		const reservation = this.ledger.reserve(key, bytes.length, this.capBytes);
		if (reservation.status === "refused")
			return {
				status: "refused",
				bytes: bytes.length,
				usedBytes: reservation.used,
				capBytes: this.capBytes,
				reason: `evidence cap of ${this.capBytes} bytes per session would be crossed (${reservation.used} used, artifact ${bytes.length})`,
			};
		let created: boolean;
		try {
			created = (await writeBlob(join(this.dir, rel), bytes, { durable: this.durable })).created;
		} catch (error) {
			if (reservation.status === "accepted") this.ledger.release(reservation.id);
			throw error;
		}
		const status = reservation.status === "accepted" && created ? "written" : "existing";
		return { status, sha256: sha, bytes: bytes.length, path };
	}

	/**
	 * An artifact's content, verified against its SHA-256 (throws SourceVerificationError otherwise).
	 * With `expectedBytes` (the record's size), an artifact of another size is refused unopened.
	 */
	read(
		owner: EvidenceOwner,
		sha256: string,
		label = `evidence ${sha256.slice(0, 12)}`,
		expectedBytes?: number,
	): Promise<string> {
		return new FoldStore(join(this.dir, ownerRelDir(owner)), { sweepTemp: false }).read(sha256, label, expectedBytes);
	}

	/** Once per store: sweep every owner's tmp/ of a killed writer's leftovers. */
	private open(): Promise<void> {
		this.opened ??= (async () => {
			for (const top of Object.values(OWNER_FOLDER))
				for (const name of await list(join(this.dir, top))) sweepStaleTemp(join(this.dir, top, name));
		})().catch(() => {
			// a folder that cannot be swept is still usable
		});
		return this.opened;
	}
}

/** Names in a real directory (never through a symlink); [] when absent. */
async function list(dir: string): Promise<string[]> {
	const st = await lstat(dir).catch(() => undefined);
	if (!st?.isDirectory()) return [];
	return readdir(dir);
}
