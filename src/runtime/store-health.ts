// Whether the fold store can be written, and what pi-fold does when it cannot. The runtime's store is
// wrapped (`guard`): a write (`put`, `putFold`) that fails (the folder made immutable or replaced by a
// file, a full disk, a read-only mount) is recorded as the store's failure and rethrown as a
// `StoreWriteError`, so the boundary that hit it knows the store, not the plan, failed. While a
// failure stands, automatic folding is paused (`pauseReason`: the runtime's, the decision core's,
// native compaction's and status's), and the human is told once per episode, in one line: what
// failed, where, what to do. Nothing half-written is referenced: sources are written before the
// records that name them, a manifest's root last, each blob atomically, so a failed write leaves no
// record naming it. At each boundary a failed store is probed with one new, unique blob (a write
// exactly like a fold's: the same folders, the same atomic rename); once that succeeds the failure
// clears, the human is told folding resumed, and the boundary folds as usual. A successful probe leaves
// its small blob behind, unreferenced (`pi-fold gc` removes it after its retention). The store does
// the I/O.

import { errorMessage } from "../common/index.ts";
import type { Host, SourceStore } from "./ports.ts";

/** A write to the fold store that failed: the store's problem, not the plan's. */
export class StoreWriteError extends Error {
	readonly dir: string;
	readonly code: string | undefined;

	constructor(dir: string, cause: unknown) {
		super(`the fold store at ${dir} cannot be written: ${errorMessage(cause)}`, { cause });
		this.name = "StoreWriteError";
		this.dir = dir;
		this.code = (cause as { code?: unknown } | null)?.code?.toString();
	}
}

/** The failure in force: where, what the system said, and which episode it belongs to. */
export interface StoreFailure {
	readonly dir: string;
	readonly detail: string;
	readonly code: string | undefined;
	readonly episode: number;
}

/** What to do, by what the system said. */
function advice(code: string | undefined): string {
	if (code === "ENOSPC" || code === "EDQUOT") return "free disk space";
	if (code === "EROFS") return "mount it writable";
	if (code === "EEXIST" || code === "ENOTDIR") return "put the folder back where the file is";
	return "make the folder writable";
}

/** The store's health for one runtime: the failure in force, episodes counted. */
export class StoreHealth {
	#failure: StoreFailure | null = null;
	#episodes = 0;
	/** The last episode the human was told of. */
	#told = 0;

	/** Forgets any failure (a new session's store). */
	reset(): void {
		this.#failure = null;
	}

	/** Why automatic folding is paused for the store (where, what the system said), or null. */
	pauseReason(): string | null {
		const f = this.#failure;
		return f ? `automatic folding paused: the fold store at ${f.dir} cannot be written (${f.detail})` : null;
	}

	/**
	 * `paused` (the runtime's pause reason) for a line told again and again (each native compaction's):
	 * the store's failure, named once with its path and error, in a few plain words; any other as it is.
	 */
	briefly(paused: string | null): string | null {
		return paused !== null && paused === this.pauseReason()
			? "automatic folding paused: the fold store cannot be written"
			: paused;
	}

	/** Records a failed write of the store at `dir` (a new episode unless one is in force). */
	private record(dir: string, error: unknown): StoreWriteError {
		const wrapped = error instanceof StoreWriteError ? error : new StoreWriteError(dir, error);
		if (!this.#failure) this.#episodes++;
		this.#failure = { dir, detail: errorMessage(wrapped.cause), code: wrapped.code, episode: this.#episodes };
		return wrapped;
	}

	/** `store` with its writes watched: a failed write is recorded and rethrown as a StoreWriteError. */
	guard(store: SourceStore, dir: string): SourceStore {
		const watch = async <T>(write: () => Promise<T>): Promise<T> => {
			try {
				return await write();
			} catch (error) {
				throw this.record(dir, error);
			}
		};
		const inner = (store as { dir?: unknown }).dir;
		const guarded: SourceStore & { readonly dir: string } = {
			dir: typeof inner === "string" ? inner : dir,
			put: (source) => watch(() => store.put(source)),
			putFold: (foldId, leaves) => watch(() => store.putFold(foldId, leaves)),
			has: (sha256) => store.has(sha256),
			read: (sha256, label, expectedBytes) => store.read(sha256, label, expectedBytes),
			readSlice: (sha256, offset, bytes, label, expectedBytes) =>
				store.readSlice(sha256, offset, bytes, label, expectedBytes),
			search: (targets, query, options) => store.search(targets, query, options),
			...(store.usage ? { usage: store.usage.bind(store) } : {}),
		};
		return guarded;
	}

	/**
	 * At a boundary, before anything is planned: a failed store is probed with one new blob (a write
	 * exactly like a fold's); success clears the failure and, when the human was told of it, says
	 * folding resumed. A failed probe leaves the failure in force (no second notice).
	 */
	async retry(store: SourceStore, host: Pick<Host, "notify" | "now">, brandNoun: string): Promise<void> {
		const f = this.#failure;
		if (!f) return;
		try {
			await store.put(`pi-fold store probe ${f.episode} ${host.now()} ${Math.random().toString(36).slice(2)}\n`);
		} catch (error) {
			this.record(f.dir, error);
			return;
		}
		this.#failure = null;
		if (this.#told === f.episode)
			host.notify(`${brandNoun}: the fold store at ${f.dir} is writable again; automatic folding resumed`, "info");
	}

	/** Tells the human the failure in force, once per episode, in one line: what, where, what to do. */
	tell(brandNoun: string, notify: Host["notify"]): void {
		const f = this.#failure;
		if (!f || this.#told === f.episode) return;
		this.#told = f.episode;
		notify(
			`${brandNoun}: the fold store at ${f.dir} cannot be written (${f.detail}); automatic folding is paused and Pi's own compaction runs when the window fills; folds already made stay readable from the session file. To resume, ${advice(f.code)}: folding resumes by itself at the next turn once a write succeeds`,
			"error",
		);
	}
}
