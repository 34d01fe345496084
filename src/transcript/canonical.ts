// Canonical bytes of session content: one JSON serialization with object keys sorted at every
// depth and no whitespace, so digests and fold ids never depend on key insertion order. Pure.

function write(value: unknown, out: string[]): void {
	if (value === null || typeof value !== "object") {
		if (value === undefined || typeof value === "function" || typeof value === "symbol") {
			out.push("null");
			return;
		}
		if (typeof value === "number" && !Number.isFinite(value)) {
			out.push("null");
			return;
		}
		if (typeof value === "bigint") throw new TypeError("canonicalJson: bigint is not JSON");
		out.push(JSON.stringify(value));
		return;
	}
	if (Array.isArray(value)) {
		out.push("[");
		for (let i = 0; i < value.length; i++) {
			if (i > 0) out.push(",");
			write(value[i], out);
		}
		out.push("]");
		return;
	}
	const record = value as Record<string, unknown>;
	const keys = Object.keys(record)
		.filter((key) => record[key] !== undefined)
		.sort();
	out.push("{");
	for (let i = 0; i < keys.length; i++) {
		const key = keys[i] as string;
		if (i > 0) out.push(",");
		out.push(JSON.stringify(key), ":");
		write(record[key], out);
	}
	out.push("}");
}

/**
 * Serializes `value` canonically: sorted object keys, no whitespace, `undefined` members dropped
 * (as JSON.stringify does), non-finite numbers as null. Equal values give equal strings.
 */
export function canonicalJson(value: unknown): string {
	const out: string[] = [];
	write(value, out);
	return out.join("");
}
