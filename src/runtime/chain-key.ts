// The key that signs pi-fold's decision records: 32 random bytes, hex, in `<agentDir>/pi-fold/chain-key`
// (file 0600, folder 0700), created on first use (written to a private temp file, then hard-linked
// into place, so two processes starting at once agree on one key). It is read once per process and
// agent directory. A key file that is not a regular file of this user's, is readable or writable by
// others, or does not hold a key is not used: the records of that process are signed with a key that
// lives only in memory (the human is told once), so a later process holds them until the human adopts
// them. Without an agent directory (the simulator's default) the in-memory key is used silently.
// Does its own file I/O, synchronously (once per process and agent directory).

import { randomBytes } from "node:crypto";
import {
	closeSync,
	constants,
	fstatSync,
	fsyncSync,
	linkSync,
	lstatSync,
	mkdirSync,
	openSync,
	readSync,
	type Stats,
	unlinkSync,
	writeSync,
} from "node:fs";
import { join } from "node:path";
import { errorMessage } from "../common/index.ts";
import { CHAIN_KEY_BYTES, type ChainKey, chainKeyOf } from "../state/index.ts";
import type { Host } from "./ports.ts";

/** Folder of pi-fold's files in the agent directory. */
const CHAIN_KEY_DIR = "pi-fold";
/** The key file's name in that folder. */
const CHAIN_KEY_FILE = "chain-key";

const HEX_CHARS = CHAIN_KEY_BYTES * 2;

/** A loaded key: where it came from and, when the file could not be used, why. */
interface LoadedChainKey {
	readonly key: ChainKey;
	/** The key file, or null for the in-memory key. */
	readonly path: string | null;
	readonly problem: string | null;
}

let processKey: ChainKey | undefined;
const loaded = new Map<string, LoadedChainKey>();
/** Key-file problems already told to the human (once per process). */
const reported = new Set<string>();

/** This process's in-memory key (records it signs verify only in this process). */
export function processChainKey(): ChainKey {
	processKey ??= chainKeyOf(randomBytes(CHAIN_KEY_BYTES));
	return processKey;
}

/** Path of the key file in `agentDir`. */
export function chainKeyPath(agentDir: string): string {
	return join(agentDir, CHAIN_KEY_DIR, CHAIN_KEY_FILE);
}

/** Why `st` (the key file or its folder) may not be trusted, or null. */
function ownershipProblem(st: Stats, what: string): string | null {
	const uid = process.getuid?.();
	if (uid !== undefined && st.uid !== uid) return `${what} belongs to uid ${st.uid}, not to this user (uid ${uid})`;
	if ((st.mode & 0o077) !== 0)
		return `${what} is open to other users (mode ${(st.mode & 0o777).toString(8).padStart(4, "0")}); chmod ${what === "the key file" ? "600" : "700"} it`;
	return null;
}

/** Reads the key at `path` (not following links, never blocking); throws naming what is wrong. */
function readKeyFile(path: string): ChainKey {
	const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	try {
		const st = fstatSync(fd);
		if (!st.isFile()) throw new Error("the key file is not a regular file");
		const owner = ownershipProblem(st, "the key file");
		if (owner) throw new Error(owner);
		if (st.size > HEX_CHARS + 1) throw new Error(`the key file holds ${st.size} bytes, not a key`);
		const buffer = Buffer.alloc(HEX_CHARS + 1);
		const n = readSync(fd, buffer, 0, buffer.length, 0);
		const text = buffer.subarray(0, n).toString("latin1").replace(/\n$/, "");
		if (!/^[0-9a-f]+$/.test(text) || text.length !== HEX_CHARS)
			throw new Error(`the key file does not hold a key (${HEX_CHARS} lowercase hex characters)`);
		return chainKeyOf(Buffer.from(text, "hex"));
	} finally {
		closeSync(fd);
	}
}

/** Creates the key file unless another process did first; returns the key now at `path`. */
function createKeyFile(dir: string, path: string): ChainKey {
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const folder = lstatSync(dir);
	if (!folder.isDirectory()) throw new Error(`${dir} is not a directory`);
	const owner = ownershipProblem(folder, "the key's folder");
	if (owner) throw new Error(owner);
	const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
	const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
	try {
		writeSync(fd, `${randomBytes(CHAIN_KEY_BYTES).toString("hex")}\n`);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	try {
		linkSync(tmp, path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
	} finally {
		unlinkSync(tmp);
	}
	return readKeyFile(path);
}

/** Loads (or creates) the key of `agentDir`; the in-memory key, with the problem, when that fails. */
export function loadChainKey(agentDir: string | undefined): LoadedChainKey {
	if (agentDir === undefined) return { key: processChainKey(), path: null, problem: null };
	const path = chainKeyPath(agentDir);
	const cached = loaded.get(path);
	if (cached) return cached;
	let result: LoadedChainKey;
	try {
		let exists = true;
		try {
			lstatSync(path);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			exists = false;
		}
		const key = exists ? readKeyFile(path) : createKeyFile(join(agentDir, CHAIN_KEY_DIR), path);
		result = { key, path, problem: null };
	} catch (error) {
		const why =
			(error as NodeJS.ErrnoException).code === "ELOOP" ? "the key file is a symbolic link" : errorMessage(error);
		result = { key: processChainKey(), path, problem: `${why} (${path})` };
	}
	loaded.set(path, result);
	return result;
}

/** The key for the host's agent directory; tells the human once when its file could not be used. */
export function chainKeyFor(host: Pick<Host, "agentDir" | "notify">): ChainKey {
	const result = loadChainKey(host.agentDir());
	if (result.problem && !reported.has(result.problem)) {
		reported.add(result.problem);
		host.notify(
			`decision records are signed with a key that lives only in this process: ${result.problem}. Records written now will be held after a restart until you adopt them.`,
			"warning",
		);
	}
	return result.key;
}

/** Forgets loaded keys (tests that change a key file between loads). */
export function forgetChainKeys(): void {
	loaded.clear();
	reported.clear();
}
