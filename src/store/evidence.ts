// Evidence artifacts: read-only copies of oversized tool results under a session's evidence folder
// (`<sessionDir>/pi-fold-evidence/`, see resolveStoreDir), each owner's artifacts a content-addressed
// store with the verifier's layout (atomic writes, files 0444, directories 0700):
//
//   <dir>/mcp/<server>/sha256/<2 hex>/<64 hex>      results of an MCP server's tools
//   <dir>/ns/<namespace>/sha256/<2 hex>/<64 hex>    everything else (namespace from entryTypePrefix)
//   (.tree sidecars beside artifacts > 4 MiB; tmp/ folders for in-flight writes)
//
// The session cap (DEFAULT_EVIDENCE_CAP_BYTES, 512 MiB) is CUMULATIVE over every artifact byte in
// the folder, not per artifact: a write that would cross it is refused whole (never truncated).
// Identical content for the same owner is stored once and charged once. The usage survives a
// restart: the first put (or usage()) scans the folder and sums the sizes of the artifact files
// (sidecars and tmp files are not artifact bytes). Writes are reserved synchronously after the
// scan, so concurrent puts can never overshoot the cap together. This module does its own file I/O.

import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { BLOBS_DIR, isDigestHex, sha256Hex, writeBlob } from "../verify/index.ts";
import { FoldStore } from "./fold-store.ts";

/** The per-session evidence cap: 512 MiB of artifact bytes, cumulative across all results. */
export const DEFAULT_EVIDENCE_CAP_BYTES = 512 * 1024 * 1024;

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

/** EvidenceStore options: `capBytes` (default DEFAULT_EVIDENCE_CAP_BYTES); `durable` fsync (default true). */
export interface EvidenceStoreOptions {
	readonly capBytes?: number;
	readonly durable?: boolean;
}

const OWNER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const OWNER_FOLDER = { mcp: "mcp", namespace: "ns" } as const;

/** The folder of an owner's artifacts, relative to the evidence folder. */
export function ownerRelDir(owner: EvidenceOwner): string {
	if (!OWNER_NAME.test(owner.name)) throw new TypeError(`evidence owner name is not a plain name: ${owner.name}`);
	return `${OWNER_FOLDER[owner.kind]}/${owner.name}`;
}

/** A session's evidence folder with its cumulative cap. */
export class EvidenceStore {
	readonly dir: string;
	readonly capBytes: number;
	private readonly durable: boolean;
	private used = 0;
	private readonly known = new Set<string>();
	private readonly inflight = new Map<string, Promise<EvidencePut>>();
	private scanned: Promise<void> | undefined;

	constructor(dir: string, options: EvidenceStoreOptions = {}) {
		const cap = options.capBytes ?? DEFAULT_EVIDENCE_CAP_BYTES;
		if (!Number.isSafeInteger(cap) || cap < 0) throw new RangeError(`EvidenceStore: capBytes must be >= 0, got ${cap}`);
		this.dir = dir;
		this.capBytes = cap;
		this.durable = options.durable ?? true;
	}

	/** Artifact bytes charged against the cap (scans the folder the first time). */
	async usage(): Promise<number> {
		await this.scan();
		return this.used;
	}

	/** Stores `data` (UTF-8) as an artifact of `owner`, or refuses it whole if it would cross the cap. */
	put(owner: EvidenceOwner, data: string): Promise<EvidencePut> {
		const rel = ownerRelDir(owner);
		const bytes = Buffer.from(data, "utf8");
		const sha = sha256Hex(bytes);
		return this.scan().then(() => {
			const key = `${rel}/${sha}`;
			const path = `${rel}/${BLOBS_DIR}/${sha.slice(0, 2)}/${sha}`;
			if (this.known.has(key)) return { status: "existing", sha256: sha, bytes: bytes.length, path } as const;
			const running = this.inflight.get(key);
			if (running) return running;
			if (this.used + bytes.length > this.capBytes)
				return {
					status: "refused",
					bytes: bytes.length,
					usedBytes: this.used,
					capBytes: this.capBytes,
					reason: `evidence cap of ${this.capBytes} bytes per session would be crossed (${this.used} used, artifact ${bytes.length})`,
				} as const;
			this.used += bytes.length; // reserved before any await
			const write = (async (): Promise<EvidencePut> => {
				try {
					await writeBlob(join(this.dir, rel), bytes, { durable: this.durable });
				} catch (error) {
					this.used -= bytes.length;
					throw error;
				}
				this.known.add(key);
				return { status: "written", sha256: sha, bytes: bytes.length, path };
			})().finally(() => this.inflight.delete(key));
			this.inflight.set(key, write);
			return write;
		});
	}

	/** An artifact's content, verified against its SHA-256 (throws SourceVerificationError otherwise). */
	read(owner: EvidenceOwner, sha256: string, label = `evidence ${sha256.slice(0, 12)}`): Promise<string> {
		return new FoldStore(join(this.dir, ownerRelDir(owner))).read(sha256, label);
	}

	private scan(): Promise<void> {
		this.scanned ??= (async () => {
			for (const kind of Object.keys(OWNER_FOLDER) as (keyof typeof OWNER_FOLDER)[]) {
				const top = OWNER_FOLDER[kind];
				for (const name of await list(join(this.dir, top))) {
					const blobs = join(this.dir, top, name, BLOBS_DIR);
					for (const fan of await list(blobs)) {
						for (const file of await list(join(blobs, fan))) {
							if (!isDigestHex(file) || file.slice(0, 2) !== fan) continue;
							const st = await lstat(join(blobs, fan, file)).catch(() => undefined);
							if (!st?.isFile()) continue;
							this.used += st.size;
							this.known.add(`${top}/${name}/${file}`);
						}
					}
				}
			}
		})().catch((error) => {
			this.used = 0;
			this.known.clear();
			this.scanned = undefined;
			throw error;
		});
		return this.scanned;
	}
}

/** Names in a real directory (never through a symlink); [] when absent. */
async function list(dir: string): Promise<string[]> {
	const st = await lstat(dir).catch(() => undefined);
	if (!st?.isDirectory()) return [];
	return readdir(dir);
}
