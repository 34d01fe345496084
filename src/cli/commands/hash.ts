// `pi-fold hash [FILE]...` (bundle build/cli-hash.js): one `<64 hex>  <name>` line per input, byte
// for byte like GNU sha256sum, including its escaping of names with a backslash or newline. No FILE,
// or `-`, reads standard input. Every input is read as a stream of sequential reads (never by size
// or position), so FIFOs, process substitution (`<(cmd)`), pipes and character devices work like
// regular files; small files with blocking reads (quickest start), large ones with the next read
// overlapping the hashing. An input that cannot be read gets one error line on stderr and the others are
// still hashed; the exit status is then 1. Hashing is the hashing API's stream (src/wasm/hash-api.ts),
// imported alone: without the Wasm core and its chooser it is node:crypto's streaming SHA-256, the
// engine pi-fold/verify measures fastest for one stream, and loading nothing else keeps the start
// instant. Does its own I/O (stdin, stdout, stderr, the files).

import { closeSync, fstatSync, openSync, read, readSync } from "node:fs";
import { type CommandSpec, parseCommandLine, renderUsage } from "../../args/index.ts";
import { createSha256 } from "../../wasm/hash-api.ts";

/** Bytes per read: large enough for full-speed hashing, small enough to keep memory flat. */
const HASH_READ_SIZE = 4 * 1024 * 1024;

const HASH_COMMAND = {
	name: "hash",
	operands: "[FILE]...",
	description:
		"Prints one SHA-256 line per FILE, exactly as sha256sum prints it. With no FILE, or when FILE is -,\n" +
		"reads standard input. FIFOs and process substitution work like regular files.",
	flags: {},
	notes: "Exit status: 0 all inputs hashed, 1 an input could not be read (named on stderr), 2 bad usage.",
} satisfies CommandSpec;

/** The line sha256sum prints for `name`: names with `\`, CR or LF are escaped and the line starts with `\`. */
export function sha256sumLine(hex: string, name: string): string {
	if (!name.includes("\\") && !name.includes("\n") && !name.includes("\r")) return `${hex}  ${name}\n`;
	const escaped = name.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll("\r", "\\r");
	return `\\${hex}  ${escaped}\n`;
}

/** sha256sum's wording for the common failures; anything else keeps Node's message. */
function describe(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	if (code === "ENOENT") return "No such file or directory";
	if (code === "EISDIR") return "Is a directory";
	if (code === "EACCES" || code === "EPERM") return "Permission denied";
	return error instanceof Error ? error.message : String(error);
}

async function hashStdin(): Promise<string> {
	const h = createSha256();
	for await (const chunk of process.stdin) h.update(chunk as Buffer);
	return h.digestHex();
}

/** Regular files up to this size are read with blocking reads: no thread pool to start, the fastest start. */
const HASH_SYNC_MAX = 4 * 1024 * 1024;

function hashBlocking(fd: number, readSize: number): string {
	const h = createSha256();
	const buffer = Buffer.allocUnsafe(readSize);
	for (;;) {
		const bytesRead = readSync(fd, buffer, 0, readSize, null);
		if (bytesRead === 0) return h.digestHex();
		h.update(buffer.subarray(0, bytesRead));
	}
}

function readAsync(fd: number, buffer: Buffer): Promise<number> {
	return new Promise((resolve, reject) => {
		read(fd, buffer, 0, buffer.length, null, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead)));
	});
}

/** Large files: the next read is in flight on the thread pool while the previous chunk is hashed. */
async function hashOverlapped(fd: number, readSize: number): Promise<string> {
	const h = createSha256();
	const buffers = [Buffer.allocUnsafe(readSize), Buffer.allocUnsafe(readSize)];
	let which = 0;
	let pending = readAsync(fd, buffers[0] as Buffer);
	for (;;) {
		const bytesRead = await pending;
		if (bytesRead === 0) return h.digestHex();
		const full = buffers[which] as Buffer;
		which ^= 1;
		pending = readAsync(fd, buffers[which] as Buffer);
		h.update(full.subarray(0, bytesRead));
	}
}

/**
 * SHA-256 of everything readable from `path`, by sequential reads (position null: no seek, and no
 * size taken from fstat except to pick blocking reads for small regular files). Opening a FIFO waits
 * for its writer, as sha256sum does.
 */
async function hashPath(path: string, readSize = HASH_READ_SIZE): Promise<string> {
	const fd = openSync(path, "r");
	try {
		const st = fstatSync(fd);
		return st.isFile() && st.size > HASH_SYNC_MAX ? await hashOverlapped(fd, readSize) : hashBlocking(fd, readSize);
	} finally {
		closeSync(fd);
	}
}

export async function main(argv: string[]): Promise<number> {
	const parsed = parseCommandLine(HASH_COMMAND, argv);
	if (parsed.help) {
		process.stdout.write(renderUsage(HASH_COMMAND));
		return 0;
	}
	const inputs = parsed.operands.length > 0 ? parsed.operands : ["-"];
	let failed = 0;
	for (const input of inputs) {
		try {
			const hex = input === "-" ? await hashStdin() : await hashPath(input);
			process.stdout.write(sha256sumLine(hex, input));
		} catch (error) {
			failed++;
			process.stderr.write(`pi-fold: hash: ${input}: ${describe(error)}\n`);
		}
	}
	return failed > 0 ? 1 : 0;
}
