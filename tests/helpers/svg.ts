// Test helper: a small, strict XML reader for the SVG charts pi-fold writes. Balanced tags, quoted
// attributes, one root, no stray markup; returns the element tree (name, attributes, children,
// text) so tests can find a series, a guide or a legend item and read its style. Pure.

export interface XmlElement {
	readonly name: string;
	readonly attrs: Readonly<Record<string, string>>;
	readonly children: XmlElement[];
	/** Text directly inside the element (entities left as written). */
	text: string;
}

const TAG = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<\?[^>]*\?>|<!--[\s\S]*?-->/g;

/** Parses `text` into its root element; throws naming the problem when it is not well-formed. */
export function parseXml(text: string): XmlElement {
	const stack: XmlElement[] = [];
	let root: XmlElement | undefined;
	let last = 0;
	for (const m of text.matchAll(TAG)) {
		const between = text.slice(last, m.index);
		if (/[<>]/.test(between)) throw new Error(`stray markup near offset ${last}: ${between.slice(0, 40)}`);
		if (stack.length === 0 && between.trim() !== "") throw new Error("text outside the root element");
		const top = stack.at(-1);
		if (top) top.text += between;
		last = (m.index ?? 0) + m[0].length;
		if (!m[2]) continue;
		const [, closing, name, attrText, selfClosing] = m as unknown as [string, string, string, string, string];
		if (closing) {
			if (stack.pop()?.name !== name) throw new Error(`mismatched </${name}>`);
			continue;
		}
		if (stack.length === 0 && root) throw new Error("a second root element");
		const attrs = Object.fromEntries([...attrText.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
		const element: XmlElement = { name, attrs: attrs as Record<string, string>, children: [], text: "" };
		if (top) top.children.push(element);
		else root = element;
		if (!selfClosing) stack.push(element);
	}
	if (stack.length > 0) throw new Error(`unclosed <${stack.at(-1)?.name}>`);
	if (text.slice(last).trim() !== "") throw new Error("text after the root element");
	if (!root) throw new Error("no root element");
	return root;
}

/** Every element under `root` (depth first, root included) that `match` accepts. */
export function findAll(root: XmlElement, match: (e: XmlElement) => boolean): XmlElement[] {
	const out: XmlElement[] = [];
	const walk = (e: XmlElement) => {
		if (match(e)) out.push(e);
		for (const c of e.children) walk(c);
	};
	walk(root);
	return out;
}

/** All text inside `e`, its descendants' included. */
export function textOf(e: XmlElement): string {
	return e.text + e.children.map(textOf).join("");
}
