// A tiny argument parser shared by the CLI's subcommands: `--name value`, `--name=value`, boolean
// `--flag`, `--` ends options. Unknown flags and bad values throw UsageError, which commands turn
// into a CliError (exit 2). No dependency on errors.ts, so bench/run.ts can use it from sources. Pure.

/** A bad command line; the message is one user-facing line. */
export class UsageError extends Error {
	override name = "UsageError";
}

/** Declared flags: "boolean", or "string" (takes a value). */
export type FlagSpec = Record<string, "boolean" | "string">;

export interface ParsedArgs {
	flags: Map<string, string | true>;
	positional: string[];
}

export function parseFlags(command: string, args: readonly string[], spec: FlagSpec): ParsedArgs {
	const flags = new Map<string, string | true>();
	const positional: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") {
			positional.push(...args.slice(i + 1));
			break;
		}
		if (!arg.startsWith("--") || arg === "-") {
			if (arg.startsWith("-") && arg !== "-")
				throw new UsageError(`${command}: unknown option ${JSON.stringify(arg)}; valid: ${validList(spec)}`);
			positional.push(arg);
			continue;
		}
		const eq = arg.indexOf("=");
		const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
		const kind = spec[name];
		if (!kind) throw new UsageError(`${command}: unknown option --${name}; valid: ${validList(spec)}`);
		if (kind === "boolean") {
			if (eq >= 0) throw new UsageError(`${command}: --${name} takes no value`);
			flags.set(name, true);
		} else {
			const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
			if (value === undefined) throw new UsageError(`${command}: --${name} needs a value`);
			flags.set(name, value);
		}
	}
	return { flags, positional };
}

function validList(spec: FlagSpec): string {
	const names = Object.keys(spec);
	return names.length === 0 ? "(none)" : names.map((n) => `--${n}`).join(", ");
}

/** An integer flag within [min, max], or `fallback` when absent. */
export function intFlag(
	command: string,
	parsed: ParsedArgs,
	name: string,
	fallback: number,
	min: number,
	max: number,
): number {
	const raw = parsed.flags.get(name);
	if (raw === undefined) return fallback;
	const n = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
	if (!Number.isSafeInteger(n) || n < min || n > max)
		throw new UsageError(`${command}: --${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
	return n;
}
