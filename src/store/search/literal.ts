// Case-insensitive literal matching, two ways, chosen per needle by how common its rarest byte is
// in fold sources (case folded):
// - a rare byte (rarer than about 0.7%): the "rare byte" prefilter of memchr-style searchers. That
//   byte is found with Buffer.indexOf (memchr speed) in each of its cases and the whole needle is
//   compared, ASCII letters folded, only at those candidates; most bytes are never touched.
// - only common bytes: too many candidates for that, so the window is copied, ASCII-lowercased four
//   bytes at a time, and the lowercased needle is found with Buffer.indexOf (memmem).
// Pure.

/**
 * ASCII bytes of fold sources (JSON lines of code and prose) from most to least frequent, letters
 * case folded; measured on the bench corpus (node_modules text, JSON-escaped). Bytes not listed
 * (controls, non-ASCII) count as rarest.
 */
const BY_FREQUENCY = [
	..." entsorai",
	"\\",
	..."clpdum",
	'"',
	..."hg.f,-b:y)(v/x=;*w`0{}k|_'21[]j54>q3z?#6<8&7!+$@9^%~",
].join("");

const RANK = new Uint8Array(256).fill(255);
for (let i = 0; i < BY_FREQUENCY.length; i++) {
	const c = BY_FREQUENCY.charCodeAt(i);
	if (RANK[c] === 255) RANK[c] = i;
	if (c >= 0x61 && c <= 0x7a) RANK[c - 0x20] = i;
}

const fold = (b: number) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b);

/** The prefilter is used when the needle's rarest byte ranks at least this far down BY_FREQUENCY. */
const RARE_BYTE_RANK = 28;

export class LiteralFinder {
	readonly length: number;
	private readonly needle: Uint8Array;
	/** Index of the rarest needle byte, and that byte in each of its cases. */
	private readonly rare: number;
	private readonly variants: readonly number[];
	/** The lowering strategy's needle and window copy (null: the prefilter is used). */
	private readonly lowNeedle: Buffer | null;
	private low: Uint8Array = new Uint8Array(0);

	/** `needle`: the pattern's bytes with ASCII letters lowercased. */
	constructor(needle: Uint8Array) {
		this.needle = needle;
		this.length = needle.length;
		let rare = 0;
		for (let i = 1; i < needle.length; i++)
			if ((RANK[needle[i] as number] as number) > (RANK[needle[rare] as number] as number)) rare = i;
		this.rare = rare;
		const b = needle[rare] as number;
		this.variants = b >= 0x61 && b <= 0x7a ? [b, b - 0x20] : [b];
		this.lowNeedle = (RANK[b] as number) >= RARE_BYTE_RANK ? null : Buffer.from(needle);
	}

	/** Which way this needle is found. */
	get strategy(): "rare byte" | "lowercased copy" {
		return this.lowNeedle ? "lowercased copy" : "rare byte";
	}

	/**
	 * Calls `hit(p)` for each start p in [from, limit) where the needle matches (case-insensitively)
	 * and `accept(p)` holds, in order, without overlaps. Returns where the next search may start.
	 */
	find(view: Buffer, from: number, limit: number, accept: (p: number) => boolean, hit: (p: number) => void): number {
		if (this.lowNeedle) return this.findLowered(view, from, limit, accept, hit);
		const { rare, variants, length } = this;
		const cursors = variants.map((v) => view.indexOf(v, from + rare));
		let next = from;
		for (;;) {
			let k = 0;
			for (let i = 1; i < cursors.length; i++)
				if (
					(cursors[i] as number) >= 0 &&
					((cursors[k] as number) < 0 || (cursors[i] as number) < (cursors[k] as number))
				)
					k = i;
			const c = cursors[k] as number;
			if (c < 0 || c - rare >= limit) return Math.max(next, limit);
			const p = c - rare;
			if (p >= next && this.matchesAt(view, p) && accept(p)) {
				hit(p);
				next = p + length;
				for (let i = 0; i < cursors.length; i++)
					if ((cursors[i] as number) >= 0 && (cursors[i] as number) < next + rare)
						cursors[i] = view.indexOf(variants[i] as number, next + rare);
			} else cursors[k] = view.indexOf(variants[k] as number, c + 1);
		}
	}

	private findLowered(
		view: Buffer,
		from: number,
		limit: number,
		accept: (p: number) => boolean,
		hit: (p: number) => void,
	): number {
		const needle = this.lowNeedle as Buffer;
		const low = this.lowered(view, from, Math.min(view.length, limit + needle.length - 1));
		let next = from;
		for (let at = low.indexOf(needle); at >= 0 && from + at < limit; ) {
			const p = from + at;
			if (accept(p)) {
				hit(p);
				next = p + needle.length;
				at = low.indexOf(needle, at + needle.length);
			} else at = low.indexOf(needle, at + 1);
		}
		return Math.max(next, limit);
	}

	/** view[from, end) copied and ASCII-lowercased (four bytes at a time), as a Buffer. */
	private lowered(view: Buffer, from: number, end: number): Buffer {
		const n = Math.max(0, end - from);
		if (this.low.length < n + 4) this.low = new Uint8Array(Math.max(n + 4, this.low.length * 2, 64 * 1024) & ~3);
		const low = this.low;
		low.set(view.subarray(from, from + n));
		const words = new Uint32Array(low.buffer, 0, (n + 3) >>> 2);
		for (let w = 0; w < words.length; w++) {
			const x = words[w] as number;
			const h = x & 0x7f7f7f7f;
			// per byte: high bit set when 'A' <= b <= 'Z' (and ASCII), shifted down to the case bit 0x20
			words[w] = x | (((h + 0x3f3f3f3f) & ~(h + 0x25252525) & ~x & 0x80808080) >>> 2);
		}
		return Buffer.from(low.buffer, 0, n);
	}

	private matchesAt(view: Buffer, p: number): boolean {
		const { needle, length } = this;
		if (p + length > view.length) return false;
		for (let i = 0; i < length; i++) if (fold(view[p + i] as number) !== needle[i]) return false;
		return true;
	}
}
