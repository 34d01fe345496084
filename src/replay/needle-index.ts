// Which of a fixed set of needles a text contains, found in one pass over the text (Aho–Corasick:
// a trie of the needles with failure and dictionary links), so the replay's working-set measure
// (working-set.ts) looks every fact up in every message, and in every brief, in time linear in the
// text and the matches, however many facts and requests there are. Exact, case-sensitive substring
// matches over UTF-16 code units. Pure.

/** Trie edges are one map keyed `node * EDGE + code unit` (a number key, no per-node maps). */
const EDGE = 0x10000;

export class NeedleIndex {
	readonly needles: readonly string[];
	private readonly edges = new Map<number, number>();
	/** Per node: the needle ending there (-1 none), its failure link, its dictionary link (-1 none). */
	private readonly out: number[] = [-1];
	private readonly fail: number[];
	private readonly dict: number[];
	/** Per node: the scan that last reported it, so one scan reports a needle once. */
	private readonly seen: Int32Array;
	private scans = 0;

	/** `needles` are distinct, non-empty strings; a needle's id is its index. */
	constructor(needles: readonly string[]) {
		this.needles = needles;
		const parent: number[] = [0];
		const code: number[] = [0];
		const depth: number[] = [0];
		needles.forEach((needle, id) => {
			let node = 0;
			for (let i = 0; i < needle.length; i++) {
				const c = needle.charCodeAt(i);
				let child = this.edges.get(node * EDGE + c);
				if (child === undefined) {
					child = this.out.length;
					this.edges.set(node * EDGE + c, child);
					this.out.push(-1);
					parent.push(node);
					code.push(c);
					depth.push(i + 1);
				}
				node = child;
			}
			this.out[node] = id;
		});
		const nodes = this.out.length;
		this.fail = new Array<number>(nodes).fill(0);
		this.dict = new Array<number>(nodes).fill(-1);
		this.seen = new Int32Array(nodes);
		// Breadth first: a node's failure link is shallower, so it is settled before the node.
		const order = Array.from({ length: nodes - 1 }, (_, i) => i + 1).sort(
			(a, b) => (depth[a] as number) - (depth[b] as number),
		);
		for (const v of order) {
			const p = parent[v] as number;
			const c = code[v] as number;
			let f = 0;
			if (p !== 0) {
				f = this.fail[p] as number;
				while (f !== 0 && !this.edges.has(f * EDGE + c)) f = this.fail[f] as number;
				f = this.edges.get(f * EDGE + c) ?? 0;
			}
			this.fail[v] = f;
			this.dict[v] = (this.out[f] as number) >= 0 ? f : (this.dict[f] as number);
		}
	}

	/** The ids of the needles `text` contains, each once, in the order their first match ends. */
	find(text: string): number[] {
		const found: number[] = [];
		if (this.needles.length === 0) return found;
		const scan = ++this.scans;
		let node = 0;
		for (let i = 0; i < text.length; i++) {
			const c = text.charCodeAt(i);
			let next = this.edges.get(node * EDGE + c);
			while (next === undefined && node !== 0) {
				node = this.fail[node] as number;
				next = this.edges.get(node * EDGE + c);
			}
			node = next ?? 0;
			// Report this node's needle and its dictionary chain; a node seen in this scan has had its chain reported.
			let v = (this.out[node] as number) >= 0 ? node : (this.dict[node] as number);
			while (v > 0 && this.seen[v] !== scan) {
				this.seen[v] = scan;
				found.push(this.out[v] as number);
				v = this.dict[v] as number;
			}
		}
		return found;
	}
}
