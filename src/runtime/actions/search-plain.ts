// A search excerpt as a person reads it. A fold's source is one JSON line per entry, and a hit's
// excerpt is a fragment of such a line: the person sees the text the entry holds, with the source's
// own characters kept (a line of code keeps its braces, commas and quotes), while the JSON around
// it (keys, the quotes and brackets of the line's structure) is left out. The fragment is read as
// JSON: the string values it holds are decoded, keys and the values of structural keys (a block's
// "type", a message's "role") dropped, each value set apart by a space. A
// fragment may start inside a string: its first unescaped quote tells (followed by `:`, `,`, `}`
// or `]`, it closes one). Pure.

/** Control characters (a decoded \u0001, say) shown as spaces. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g;

const ESCAPES: Record<string, string> = { n: "⏎", t: " ", r: "", b: "", f: "", '"': '"', "\\": "\\", "/": "/" };

/** A JSON string fragment as readable text: escapes decoded, newlines shown as ⏎, controls as spaces. */
export function displayText(raw: string): string {
	return raw
		.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_, e: string) =>
			e.length === 5 ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? ""),
		)
		.replace(CONTROL, " ");
}

/** Keys whose string values describe the entry, not what it says (a block's "type", a message's "role"). */
const STRUCTURAL_KEYS = new Set([
	"type",
	"role",
	"id",
	"parentId",
	"toolCallId",
	"toolName",
	"customType",
	"stopReason",
	"api",
	"provider",
	"model",
	"responseId",
]);

/** Whether `key` names a structural value; a key the fragment cut (`pe` of "type") when it ends one. */
function isStructural(key: string, cut: boolean): boolean {
	if (STRUCTURAL_KEYS.has(key)) return true;
	return cut && key.length > 0 && [...STRUCTURAL_KEYS].some((k) => k.endsWith(key));
}

/** The fragment `before + match + after` as plain text, the match marked «like this». */
export function plainExcerpt(before: string, match: string, after: string): string {
	const raw = before + match + after;
	const open = before.length;
	const close = before.length + match.length;
	let inside = startsInside(raw);
	const startedInside = inside;
	let seenString = false;
	let cutKey = false;
	const values: { text: string; marked: boolean }[] = [];
	let current = "";
	let marked = false;
	let start = 0;
	// The key the string being read is the value of (a structural key's value is the line's, not the text's).
	let key: string | null = null;
	const flush = (isKey: boolean) => {
		const structural = !isKey && key !== null && isStructural(key, cutKey);
		if (current && ((!isKey && !structural) || marked)) values.push({ text: current, marked });
		key = isKey ? current : null;
		// Only the fragment's first string can be a key cut at its start.
		cutKey = isKey && values.length === 0 && startedInside && !seenString;
		seenString = true;
		current = "";
		marked = false;
	};
	for (let i = 0; i <= raw.length; i++) {
		if (i === open || i === close) {
			if (inside) current += displayText(raw.slice(start, i));
			current += i === open ? "«" : "»";
			marked = true;
			start = i;
		}
		if (i === raw.length) break;
		const c = raw[i];
		if (c === "\\" && inside) {
			i++;
			continue;
		}
		if (c !== '"') continue;
		if (inside) {
			current += displayText(raw.slice(start, i));
			flush(/^\s*:/.test(raw.slice(i + 1)));
		}
		inside = !inside;
		start = i + 1;
	}
	// A fragment cut inside an escape (`\` of `\"`) ends before it.
	if (inside) current += displayText(raw.slice(start).replace(/(^|[^\\])((?:\\\\)*)\\(u[0-9a-fA-F]{0,3})?$/, "$1$2"));
	flush(false);
	return values.map((v) => v.text).join(" ");
}

/** Whether a JSON fragment starts inside a string value (its first unescaped quote closes one). */
function startsInside(raw: string): boolean {
	for (let i = 0; i < raw.length; i++) {
		if (raw[i] === "\\") {
			i++;
			continue;
		}
		if (raw[i] !== '"') continue;
		const next = raw.slice(i + 1).trimStart()[0];
		if (next === undefined || ":,}]".includes(next)) return true;
		const prev = raw.slice(0, i).trimEnd().at(-1);
		return !(prev === undefined || ":,[{".includes(prev));
	}
	// No quote at all: the fragment lies inside one string.
	return true;
}
