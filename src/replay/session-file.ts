// Reads a Pi session file (JSONL; Pi 1.x writes version 3, and older files of versions 1 and 2
// are read as Pi migrates them) without Pi: each line checked by zod, the header first, every
// problem named by its line (not a session file, a truncated last line, an unknown version, a
// malformed entry, a parent that is not in the file). Then the active branch: the path from the
// last entry back to the root, as Pi opens the file. Pure over the text.

import { z } from "zod";

/** The session file versions this reader knows (Pi 1.x's CURRENT_SESSION_VERSION is 3). */
const SESSION_VERSIONS = [1, 2, 3] as const;

/** A problem with the file, naming the line (1-based) it is on. */
export class SessionFileError extends Error {
	readonly line: number;
	constructor(line: number, message: string) {
		super(`line ${line}: ${message}`);
		this.name = "SessionFileError";
		this.line = line;
	}
}

const usageSchema = z.looseObject({
	input: z.number().nonnegative(),
	output: z.number().nonnegative(),
	cacheRead: z.number().nonnegative().default(0),
	cacheWrite: z.number().nonnegative().default(0),
	totalTokens: z.number().nonnegative().optional(),
	cost: z
		.looseObject({
			input: z.number().default(0),
			output: z.number().default(0),
			cacheRead: z.number().default(0),
			cacheWrite: z.number().default(0),
			total: z.number().default(0),
		})
		.optional(),
});
export type FileUsage = z.infer<typeof usageSchema>;

const headerSchema = z.looseObject({
	type: z.literal("session"),
	version: z.unknown().optional(),
	id: z.string().min(1),
	timestamp: z.string().optional(),
	cwd: z.string().optional(),
});

const messageSchema = z.looseObject({
	role: z.string().min(1),
	content: z.unknown().optional(),
	usage: usageSchema.optional(),
	provider: z.string().optional(),
	model: z.string().optional(),
	timestamp: z.number().optional(),
});
export type FileMessage = z.infer<typeof messageSchema>;

const base = { id: z.string().min(1), parentId: z.string().min(1).nullable(), timestamp: z.string().optional() };

/** The entries pi-fold's replay reads; any other type is kept as a plain tree node. */
const entrySchemas = {
	message: z.looseObject({ ...base, type: z.literal("message"), message: messageSchema }),
	compaction: z.looseObject({
		...base,
		type: z.literal("compaction"),
		summary: z.string(),
		firstKeptEntryId: z.string().min(1).nullable().optional(),
		tokensBefore: z.number().nonnegative().default(0),
		usage: usageSchema.optional(),
	}),
	branch_summary: z.looseObject({
		...base,
		type: z.literal("branch_summary"),
		summary: z.string(),
		usage: usageSchema.optional(),
	}),
	usage: z.looseObject({ ...base, type: z.literal("usage"), kind: z.string().optional(), usage: usageSchema }),
	custom: z.looseObject({ ...base, type: z.literal("custom"), customType: z.string(), data: z.unknown().optional() }),
	custom_message: z.looseObject({
		...base,
		type: z.literal("custom_message"),
		customType: z.string(),
		content: z.unknown(),
		display: z.boolean().optional(),
	}),
	context_edit: z.looseObject({
		...base,
		type: z.literal("context_edit"),
		targetId: z.string().min(1),
		replacement: z.looseObject({ content: z.unknown() }).nullable(),
	}),
} as const;
const otherSchema = z.looseObject({ ...base, type: z.string().min(1) });

type Known = { [K in keyof typeof entrySchemas]: z.infer<(typeof entrySchemas)[K]> };
/** One entry of the file, with the line it was on. */
export type FileEntry = (Known[keyof Known] | (z.infer<typeof otherSchema> & { type: "other" })) & {
	readonly line: number;
	readonly kind: string;
};

export interface SessionFile {
	readonly id: string;
	readonly version: number;
	readonly cwd: string | undefined;
	/** Every entry, in file order. */
	readonly entries: readonly FileEntry[];
	/** The active branch: root to the last entry, as Pi opens the file. */
	readonly branch: readonly FileEntry[];
}

function parseLine(text: string, line: number, last: boolean, complete: boolean): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		if (last && !complete)
			throw new SessionFileError(
				line,
				"truncated: the last line is not complete JSON (was the file cut off while Pi wrote it?)",
			);
		// A first line that is not JSON: some other file, said in words (the parser's message helps no one).
		if (line === 1)
			throw new SessionFileError(
				line,
				"not a Pi session file: a session file is JSON lines, and this first line is not JSON",
			);
		throw new SessionFileError(line, `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
	}
}

function firstIssue(error: z.ZodError): string {
	const issue = error.issues[0];
	if (!issue) return "malformed";
	const path = issue.path.map(String).join(".");
	return `${path || "entry"}: ${issue.message}`;
}

function readHeader(json: unknown): { id: string; version: number; cwd: string | undefined } {
	const parsed = headerSchema.safeParse(json);
	if (!parsed.success) {
		const found = JSON.stringify(json)?.slice(0, 60) ?? String(json);
		throw new SessionFileError(
			1,
			`not a Pi session file: the first line must be a session header like {"type":"session","version":3,"id":"..."}, found ${found}`,
		);
	}
	const version = parsed.data.version ?? 1;
	if (!(SESSION_VERSIONS as readonly unknown[]).includes(version))
		throw new SessionFileError(
			1,
			`session version ${JSON.stringify(version)} is not one pi-fold reads (it reads versions ${SESSION_VERSIONS.join(", ")}, those of Pi 1.x)`,
		);
	return { id: parsed.data.id, version: version as number, cwd: parsed.data.cwd };
}

/** One entry line, migrated as Pi migrates older versions (v1: no ids; v2: hookMessage role). */
function readEntry(json: unknown, line: number, version: number, previous: string | null): FileEntry {
	if (json === null || typeof json !== "object" || Array.isArray(json))
		throw new SessionFileError(line, "not a session entry (expected a JSON object with a type)");
	let raw = json as Record<string, unknown>;
	if (version === 1 && raw.id === undefined) raw = { ...raw, id: `line-${line}`, parentId: previous };
	const type = typeof raw.type === "string" ? raw.type : "";
	const schema = (entrySchemas as Record<string, z.ZodType>)[type];
	const parsed = (schema ?? otherSchema).safeParse(raw);
	if (!parsed.success) throw new SessionFileError(line, `${type || "untyped"} entry: ${firstIssue(parsed.error)}`);
	const entry = parsed.data as Record<string, unknown>;
	if (version < 3 && type === "message") {
		const message = entry.message as FileMessage;
		if (message.role === "hookMessage") entry.message = { ...message, role: "custom" };
	}
	return { ...entry, type: schema ? type : "other", kind: type, line } as FileEntry;
}

/** The active branch: the path from the last entry back to the root. */
function activeBranch(entries: readonly FileEntry[]): FileEntry[] {
	const byId = new Map(entries.map((e) => [e.id, e]));
	const branch: FileEntry[] = [];
	let at = entries.at(-1);
	const seen = new Set<string>();
	while (at) {
		if (seen.has(at.id)) throw new SessionFileError(at.line, `entry ${at.id} is its own ancestor`);
		seen.add(at.id);
		branch.push(at);
		if (at.parentId === null) break;
		const parent = byId.get(at.parentId);
		if (!parent) throw new SessionFileError(at.line, `parent ${at.parentId} is not in the file`);
		at = parent;
	}
	return branch.reverse();
}

/** Parses a session file's text; throws a SessionFileError naming the line of the first problem. */
export function parseSessionFile(text: string): SessionFile {
	const lines = text.split("\n");
	const complete = text.endsWith("\n");
	const numbered = lines.map((t, i) => ({ text: t, line: i + 1 })).filter((l) => l.text.trim() !== "");
	const first = numbered[0];
	if (!first) throw new SessionFileError(1, "the file is empty: not a Pi session file");
	const header = readHeader(parseLine(first.text, first.line, numbered.length === 1, complete));
	const entries: FileEntry[] = [];
	for (const [i, { text: t, line }] of numbered.slice(1).entries()) {
		const json = parseLine(t, line, i === numbered.length - 2, complete);
		entries.push(readEntry(json, line, header.version, entries.at(-1)?.id ?? null));
	}
	return { ...header, entries, branch: activeBranch(entries) };
}
