// `pi-fold hash FILE...`: one `<64 hex>  <file>` line per file, byte-for-byte like GNU sha256sum
// (including its escaping of names with a backslash or newline, and `-` for standard input). A file
// that cannot be read gets one error line on stderr; the others are still hashed; exit 1 then.
// Does its own I/O (stdout, stderr, files via hashFile).

import { createHash } from "node:crypto";
import { hashFile } from "../../verify/index.ts";
import { CliError } from "../errors.ts";
import { parseFlags, UsageError } from "../flags.ts";

/** The line sha256sum prints for `name`: names with `\` or newline are escaped and the line starts with `\`. */
export function sha256sumLine(hex: string, name: string): string {
	if (!name.includes("\\") && !name.includes("\n") && !name.includes("\r")) return `${hex}  ${name}\n`;
	const escaped = name.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll("\r", "\\r");
	return `\\${hex}  ${escaped}\n`;
}

function describe(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	if (code === "ENOENT") return "No such file or directory";
	if (code === "EISDIR") return "Is a directory";
	if (code === "EACCES" || code === "EPERM") return "Permission denied";
	return error instanceof Error ? error.message : String(error);
}

async function hashStdin(): Promise<string> {
	const h = createHash("sha256");
	for await (const chunk of process.stdin) h.update(chunk as Buffer);
	return h.digest("hex");
}

export const command = {
	summary: "print SHA-256 lines exactly like sha256sum",
	async run(args: string[]): Promise<number> {
		let files: string[];
		try {
			files = parseFlags("hash", args, {}).positional;
		} catch (error) {
			throw new CliError(error instanceof UsageError ? error.message : String(error), 2);
		}
		if (files.length === 0) throw new CliError("hash: no files given (usage: pi-fold hash FILE...)", 2);
		let failed = 0;
		for (const file of files) {
			try {
				const hex = file === "-" ? await hashStdin() : await hashFile(file);
				process.stdout.write(sha256sumLine(hex, file));
			} catch (error) {
				failed++;
				process.stderr.write(`pi-fold: ${file}: ${describe(error)}\n`);
			}
		}
		return failed > 0 ? 1 : 0;
	},
};
