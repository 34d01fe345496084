// The per-session evidence ledger: which artifacts a session stored and how many bytes that charged
// against its cap, kept in `<evidence dir>/sessions/<session key>.ledger` so the cap is counted by
// session id (not by folder) and holds across restarts and across processes sharing the folder.
//
// The file is append-only, one line per event, each appended with a single O_APPEND write:
//   R <id> <bytes> <cap> <owner/sha>    a reservation (id: 16 random hex)
//   X <id>                              the release of a reservation whose write failed
// Every reader replays the lines in file order with the same rule: a reservation is accepted when the
// bytes accepted before it plus its own stay within the cap written on its line; one for an artifact
// the session already holds is a duplicate (charged once). Appends are ordered by the kernel, so all
// processes agree on every outcome without a lock: a writer appends its reservation, then replays up
// to it to learn its fate. No overshoot is possible, and another session's usage never counts.
// Does its own file I/O (synchronous: small appends and reads; never follows a symlink, never
// blocks on a FIFO, reads at most MAX_LEDGER_BYTES).

import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { checkedOpen, DIR_MODE, FileRefusedError, readAt } from "../verify/index.ts";

/** A ledger larger than this (16 MiB, ~150,000 events) is refused: the session stores no more evidence. */
export const MAX_LEDGER_BYTES = 16 * 1024 * 1024;

/** The fate of a reservation. */
export type Reservation =
	| { readonly status: "accepted"; readonly id: string; readonly used: number }
	| { readonly status: "duplicate"; readonly used: number }
	| { readonly status: "refused"; readonly used: number };

const APPEND_FLAGS =
	constants.O_WRONLY |
	constants.O_APPEND |
	constants.O_CREAT |
	(constants.O_NOFOLLOW ?? 0) |
	(constants.O_NONBLOCK ?? 0);
const KEY = /^[A-Za-z0-9._/-]{1,400}$/;

/** One session's ledger file, replayed incrementally. */
export class EvidenceLedger {
	readonly path: string;
	private readonly folder: string;
	private used = 0;
	private offset = 0;
	private partial = "";
	private readonly held = new Map<string, { id: string; bytes: number }>();
	private readonly byId = new Map<string, { key: string; bytes: number }>();
	private readonly fate = new Map<string, "accepted" | "duplicate" | "refused">();

	/** `dir`: the evidence folder; `sessionKey`: a file-name-safe key (store/dir.ts sessionKey). */
	constructor(dir: string, sessionKey: string) {
		this.folder = join(dir, "sessions");
		this.path = join(this.folder, `${sessionKey}.ledger`);
	}

	/** Bytes charged to this session now. */
	usage(): number {
		this.replay();
		return this.used;
	}

	/** True when this session already holds the artifact `key` (`<owner folder>/<sha>`). */
	holds(key: string): boolean {
		this.replay();
		return this.held.has(key);
	}

	/** Reserves `bytes` for artifact `key` under `cap`; see the module comment for the rule. */
	reserve(key: string, bytes: number, cap: number): Reservation {
		if (!KEY.test(key)) throw new TypeError(`evidence ledger: not an artifact key: ${key}`);
		this.replay();
		if (this.held.has(key)) return { status: "duplicate", used: this.used };
		if (this.used + bytes > cap) return { status: "refused", used: this.used };
		const id = randomBytes(8).toString("hex");
		this.append(`R ${id} ${bytes} ${cap} ${key}\n`);
		this.replay();
		const fate = this.fate.get(id);
		if (fate === "accepted") return { status: "accepted", id, used: this.used };
		return { status: fate === "duplicate" ? "duplicate" : "refused", used: this.used };
	}

	/** Gives back an accepted reservation whose artifact could not be written. */
	release(id: string): void {
		this.append(`X ${id}\n`);
		this.replay();
	}

	private append(line: string): void {
		mkdirSync(this.folder, { recursive: true, mode: DIR_MODE });
		if (!lstatSync(this.folder).isDirectory())
			throw new Error(`evidence ledger folder is not a directory: ${this.folder}`);
		const fd = openSync(this.path, APPEND_FLAGS, 0o600);
		try {
			if (!fstatSync(fd).isFile()) throw new FileRefusedError(this.path, "not-regular", "is not a regular file");
			const bytes = Buffer.from(line, "utf8");
			if (writeSync(fd, bytes) !== bytes.length) throw new Error(`short append to ${this.path}`);
		} finally {
			closeSync(fd);
		}
	}

	/** Reads what was appended since the last replay and applies its complete lines. */
	private replay(): void {
		let opened: { fd: number; size: number };
		try {
			opened = checkedOpen(this.path, { maxSize: MAX_LEDGER_BYTES, appendOnly: true });
		} catch (error) {
			if (error instanceof FileRefusedError && error.problem === "missing") return;
			throw error;
		}
		try {
			const length = opened.size - this.offset;
			if (length <= 0) return;
			const buf = new Uint8Array(length);
			const n = readAt(opened.fd, buf, length, this.offset);
			this.offset += n;
			const text = this.partial + Buffer.from(buf.buffer, 0, n).toString("utf8");
			const lines = text.split("\n");
			this.partial = lines.pop() ?? "";
			for (const line of lines) this.apply(line);
		} finally {
			closeSync(opened.fd);
		}
	}

	private apply(line: string): void {
		const [kind, id, a, b, key] = line.split(" ");
		if (kind === "R" && id && key) {
			const bytes = Number(a);
			const cap = Number(b);
			if (!Number.isSafeInteger(bytes) || bytes < 0 || !Number.isSafeInteger(cap)) return;
			if (this.held.has(key)) this.fate.set(id, "duplicate");
			else if (this.used + bytes > cap) this.fate.set(id, "refused");
			else {
				this.fate.set(id, "accepted");
				this.used += bytes;
				this.held.set(key, { id, bytes });
				this.byId.set(id, { key, bytes });
			}
		} else if (kind === "X" && id) {
			const entry = this.byId.get(id);
			if (!entry) return;
			this.byId.delete(id);
			this.held.delete(entry.key);
			this.used -= entry.bytes;
		}
	}
}
