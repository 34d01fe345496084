// Command lines of the `pi-fold` commands and of the benchmark programs: each command declares its
// flags once (kind, value name, help, default, bounds) and both the parser and the usage text derive
// from that declaration, so a default is written in one place and every flag appears in the usage.
// The words are split by Node's `util.parseArgs` (its tokens); this module checks them against the
// declaration and converts the values. Conventions: `--name value` or `--name=value`, boolean
// `--flag`, a declared one-letter alias alone (`-q`; no bundles like `-qv`), `-h`/`--help` anywhere
// before `--`, `--` ends options, `-` alone is an operand (standard input). Values with a shape of
// their own (lists, price tables) are the command's to check. Pure: no I/O, no process state.

import { parseArgs } from "node:util";

/** A bad command line. `exitCode` 2 is the CLI's status for usage errors; the message is one line. */
export class UsageError extends Error {
	override name = "UsageError";
	readonly exitCode = 2;
}

interface FlagBase {
	/** One line of help (the default is appended from `default`). */
	help: string;
	/** A one-letter alias, e.g. "q" for -q. */
	short?: string;
}

/** A switch: present or absent. */
interface BooleanFlag extends FlagBase {
	kind: "boolean";
}

/** A whole number within [min, max] (each bound optional). */
interface IntegerFlag extends FlagBase {
	kind: "integer";
	/** Name of the value in the usage text, e.g. "N" or "MiB". */
	value: string;
	default?: number;
	min?: number;
	max?: number;
}

/** A free string. */
interface StringFlag extends FlagBase {
	kind: "string";
	value: string;
	default?: string;
}

/** One of a fixed set of words. */
interface ChoiceFlag extends FlagBase {
	kind: "choice";
	choices: readonly string[];
	default?: string;
}

type Flag = BooleanFlag | IntegerFlag | StringFlag | ChoiceFlag;
export type FlagSpec = Readonly<Record<string, Flag>>;

/** A command: its name after `pi-fold`, its operands, what it does, and its flags. */
export interface CommandSpec<S extends FlagSpec = FlagSpec> {
	name: string;
	/** The program the usage and the errors name, when it is not `pi-fold <name>` (a benchmark script). */
	program?: string;
	/** Operands in the synopsis, e.g. "DIR" or "[FILE]...". */
	operands?: string;
	/** One paragraph (already wrapped) printed under the synopsis. */
	description: string;
	flags: S;
	/** Closing lines (exit status, notes). */
	notes?: string;
}

type ValueOf<F extends Flag> = F extends BooleanFlag
	? boolean
	: F extends IntegerFlag
		? F extends { default: number }
			? number
			: number | undefined
		: F extends { default: string }
			? string
			: string | undefined;

/** The parsed values, typed from the declaration: defaults filled, absent optional flags undefined. */
export type FlagValues<S extends FlagSpec> = { -readonly [K in keyof S]: ValueOf<S[K]> };

type ParsedCommandLine<S extends FlagSpec> = { help: true } | { help: false; flags: FlagValues<S>; operands: string[] };

const HELP_FLAG: BooleanFlag = { kind: "boolean", short: "h", help: "print this help and exit" };

function programOf(spec: CommandSpec): string {
	return spec.program ?? `pi-fold ${spec.name}`;
}

function seeHelp(spec: CommandSpec): string {
	return `see '${programOf(spec)} --help'`;
}

function integerValue(spec: CommandSpec, name: string, flag: IntegerFlag, raw: string): number {
	const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
	const min = flag.min ?? 0;
	const max = flag.max ?? Number.MAX_SAFE_INTEGER;
	if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
	const range =
		flag.max !== undefined
			? `an integer from ${min} to ${max}`
			: flag.min !== undefined
				? `a whole number of at least ${min}`
				: "a whole number";
	throw new UsageError(`--${name} must be ${range}, got ${JSON.stringify(raw)}; ${seeHelp(spec)}`);
}

function convert(spec: CommandSpec, name: string, flag: Flag, raw: string): string | number {
	if (flag.kind === "integer") return integerValue(spec, name, flag, raw);
	if (flag.kind === "choice" && !flag.choices.includes(raw))
		throw new UsageError(`--${name} must be ${orList(flag.choices)}, got ${JSON.stringify(raw)}`);
	return raw;
}

function orList(words: readonly string[]): string {
	return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

function defaults<S extends FlagSpec>(flags: S): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [name, flag] of Object.entries(flags)) out[name] = flag.kind === "boolean" ? false : flag.default;
	return out;
}

/** Node's parser options for a declaration: every flag a boolean or a string, `help` with its `-h`. */
function nodeOptions(spec: CommandSpec): Record<string, { type: "boolean" | "string"; short?: string }> {
	const options: Record<string, { type: "boolean" | "string"; short?: string }> = {
		help: { type: "boolean", short: "h" },
	};
	for (const [name, flag] of Object.entries(spec.flags))
		options[name] = {
			type: flag.kind === "boolean" ? "boolean" : "string",
			...(flag.short ? { short: flag.short } : {}),
		};
	return options;
}

/** The declared flag an option word names (by its long name, or a lone `-x` by its alias), or undefined. */
function flagOf(spec: CommandSpec, name: string, arg: string): Flag | undefined {
	const flag = Object.hasOwn(spec.flags, name) ? spec.flags[name] : undefined;
	if (arg.startsWith("--")) return flag;
	return flag && arg === `-${flag.short}` ? flag : undefined;
}

/** Parses `argv` (the words after the command name) against the command's declaration (no `operands`: none allowed). */
export function parseCommandLine<S extends FlagSpec>(
	spec: CommandSpec<S>,
	argv: readonly string[],
): ParsedCommandLine<S> {
	const values = defaults(spec.flags);
	const operands: string[] = [];
	// Not strict: unknown options, missing values and values given to switches come back as tokens,
	// refused below in the order they were typed, with this module's wording.
	const { tokens } = parseArgs({
		args: [...argv],
		options: nodeOptions(spec),
		strict: false,
		allowPositionals: true,
		tokens: true,
	});
	for (const token of tokens) {
		if (token.kind === "positional") operands.push(token.value);
		if (token.kind !== "option") continue;
		const arg = argv[token.index] as string;
		// A short option bundled with others or with its value (`-qv`, `-n5`) is refused whole.
		const bundled = !arg.startsWith("--") && arg !== token.rawName;
		if (!bundled && token.name === "help" && token.value === undefined) return { help: true };
		const flag = bundled ? undefined : flagOf(spec, token.name, arg);
		if (!flag) {
			const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
			throw new UsageError(`unknown option ${eq >= 0 ? arg.slice(0, eq) : arg}; ${seeHelp(spec)}`);
		}
		if (flag.kind === "boolean") {
			if (token.value !== undefined) throw new UsageError(`--${token.name} takes no value`);
			values[token.name] = true;
			continue;
		}
		if (token.value === undefined)
			throw new UsageError(`--${token.name} needs a value (${usageTerm(token.name, flag)})`);
		values[token.name] = convert(spec, token.name, flag, token.value);
	}
	// A command that declares no operands takes none.
	if (!spec.operands && operands.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(operands[0])}`);
	return { help: false, flags: values as FlagValues<S>, operands };
}

function usageTerm(name: string, flag: Flag): string {
	if (flag.kind === "boolean") return `--${name}`;
	if (flag.kind === "choice") return `--${name} ${flag.choices.join("|")}`;
	return `--${name} ${flag.value}`;
}

/** Marks a word that continues the one before it with no space (a long list breaks after its commas). */
const GLUED = "\u0000";

/** The help of a flag as words for wrapping; "(default X)" stays one unit, a list of values breaking only after a comma. */
function helpWords(flag: Flag): string[] {
	const words = flag.help.split(" ");
	if (flag.kind === "boolean" || flag.default === undefined) return words;
	const pieces = `(default ${flag.default})`.split(/(?<=,)/);
	return [...words, ...pieces.map((p, i) => (i === 0 ? p : GLUED + p))];
}

/** Words wrapped into lines of at most `width` columns, continuation lines indented by `indent`. */
export function wrap(words: readonly string[], width: number, indent: string, first = ""): string[] {
	const lines: string[] = [];
	let line = first;
	for (const raw of words) {
		const glued = raw.startsWith(GLUED);
		const word = glued ? raw.slice(1) : raw;
		const sep = glued || line === first || line === indent ? "" : " ";
		if (line.length + sep.length + word.length > width && line.trim() !== "") {
			lines.push(line);
			line = indent + word;
		} else line += sep + word;
	}
	if (line.trim() !== "") lines.push(line);
	return lines;
}

/** Columns of the usage text. */
const WIDTH = 100;

/** The full usage text: synopsis with every flag, the description, each flag with its default. */
export function renderUsage(spec: CommandSpec): string {
	const entries = Object.entries(spec.flags);
	const head = `usage: ${programOf(spec)} `;
	const words = [...entries.map(([n, f]) => `[${usageTerm(n, f)}]`), ...(spec.operands ? [spec.operands] : [])];
	const synopsis = wrap(words, WIDTH, " ".repeat(head.length), head);
	const rows: [string, string[]][] = [
		["-h, --help", HELP_FLAG.help.split(" ")],
		...entries.map(([n, f]): [string, string[]] => [
			`${f.short ? `-${f.short}, ` : "    "}${usageTerm(n, f)}`,
			helpWords(f),
		]),
	];
	const left = Math.max(...rows.map(([l]) => l.length)) + 4;
	const options = rows.flatMap(([l, words]) => wrap(words, WIDTH, " ".repeat(left), `  ${l}`.padEnd(left)));
	return `${[...synopsis, "", spec.description, "", "options:", ...options, ...(spec.notes ? ["", spec.notes] : [])].join("\n")}\n`;
}
