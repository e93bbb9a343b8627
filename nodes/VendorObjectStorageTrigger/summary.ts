/**
 * The difference summary of the Object Storage Trigger: a fixed-size table from which the
 * difference between two listings can be read back, as long as that difference is small, without
 * keeping either listing. It is an invertible Bloom lookup table (Goodrich and Mitzenmacher,
 * "Invertible Bloom Lookup Tables", 2011; Eppstein et al., "What's the Difference?", SIGCOMM 2011).
 *
 * Every listed object is an element: the 64-bit id of its key (`a`, `b`: the first 8 bytes of
 * the MD5 of the key) and the 32-bit id of its ETag (`e`). An element is added to three cells,
 * one in each third of the table, chosen by hashing it; each cell keeps how many elements it got
 * (modulo 2^16), the XOR of their `a`, `b` and `e`, and the XOR of a check hash of each. The
 * table of one listing minus the table of another is the table of their difference: elements of
 * the new listing only count +1, of the old one only -1, elements of both cancel out. A cell left
 * with one element (count ±1 and a check hash that matches) names that element; taking it out of
 * its three cells frees others, and so on ("peeling"). With three cells per element a table of C
 * cells gives back a difference of up to about C / 1.23 elements; a larger difference leaves
 * cells that cannot be peeled (`complete: false`), and what was peeled is still right.
 *
 * Ids are per key and per ETag, so an object written again with other content is one element
 * removed and one added with the same key id: the trigger reads that as "changed".
 */
import * as crypto from 'crypto';

/** An object as an element: key id (a, b) and ETag id (e), unsigned 32-bit numbers. */
export interface Element {
	a: number;
	b: number;
	e: number;
}

/** Bytes per cell when encoded: count (16 bits), a, b, e, check (32 bits each). */
const CELL_BYTES = 18;
/** Bytes per element when encoded (the trigger's list of recent objects). */
export const ELEMENT_BYTES = 12;
const SEEDS = [0x9747b28c, 0x5bd1e995, 0x1b873593];
const CHECK_SEED = 0x2545f491;

/** One 32-bit word mixed into a MurmurHash3 state. */
function mix(h: number, word: number): number {
	let k = Math.imul(word, 0xcc9e2d51);
	k = (k << 15) | (k >>> 17);
	k = Math.imul(k, 0x1b873593);
	h ^= k;
	h = (h << 13) | (h >>> 19);
	return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/**
 * MurmurHash3 (x86, 32 bits) of three 32-bit words. Called four times per listed object on every
 * poll, so the words are mixed in without an array (the trigger's benchmark: 100,000 objects a poll).
 */
function murmur3(a: number, b: number, e: number, seed: number): number {
	let h = mix(mix(mix(seed | 0, a), b), e);
	h ^= 12;
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}

type OneShotHash = (algorithm: string, data: string, outputEncoding: 'buffer') => Buffer;
/** crypto.hash (Node 20.12 and later): a one-shot digest, about twice as fast as createHash for short texts. */
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;
/** MD5 of a text (UTF-8); two per listed object on every poll. */
const md5 = (text: string): Buffer => (oneShot ? oneShot('md5', text, 'buffer') : crypto.createHash('md5').update(text, 'utf8').digest());

/** The key id of a key: the first 8 bytes of its MD5. */
export function keyIdOf(key: string): { a: number; b: number } {
	const d = md5(key);
	return { a: d.readUInt32LE(0), b: d.readUInt32LE(4) };
}

/** The ETag id of an ETag as listed (quotes and case do not matter). */
export function etagIdOf(etag: string): number {
	return md5(etag.replace(/^"(.*)"$/, '$1').toLowerCase()).readUInt32LE(0);
}

/** A string naming an element, for sets and maps. */
export const elementId = (x: Element): string => `${x.a}.${x.b}.${x.e}`;
/** A string naming an element's key. */
export const keyIdString = (x: Pick<Element, 'a' | 'b'>): string => `${x.a}.${x.b}`;

export class Summary {
	readonly size: number;
	readonly count: Int32Array;
	readonly a: Uint32Array;
	readonly b: Uint32Array;
	readonly e: Uint32Array;
	readonly check: Uint32Array;

	/** An empty table of `size` cells (a multiple of 3). */
	constructor(size: number) {
		if (size <= 0 || size % 3 !== 0) throw new Error(`a summary has a positive multiple of 3 cells, not ${size}`);
		this.size = size;
		this.count = new Int32Array(size);
		this.a = new Uint32Array(size);
		this.b = new Uint32Array(size);
		this.e = new Uint32Array(size);
		this.check = new Uint32Array(size);
	}

	/** The table of a whole listing. */
	static of(elements: Iterable<Element>, size: number): Summary {
		const s = new Summary(size);
		for (const x of elements) s.add(x, 1);
		return s;
	}

	/** The three cells of an element, one in each third of the table. */
	cellsOf(x: Element): [number, number, number] {
		const third = this.size / 3;
		return [
			murmur3(x.a, x.b, x.e, SEEDS[0]) % third,
			third + (murmur3(x.a, x.b, x.e, SEEDS[1]) % third),
			2 * third + (murmur3(x.a, x.b, x.e, SEEDS[2]) % third),
		];
	}

	/** Adds (sign 1) or takes out (sign -1) one element. */
	add(x: Element, sign: 1 | -1): void {
		const check = murmur3(x.a, x.b, x.e, CHECK_SEED);
		for (const i of this.cellsOf(x)) {
			this.count[i] += sign;
			this.a[i] ^= x.a;
			this.b[i] ^= x.b;
			this.e[i] ^= x.e;
			this.check[i] ^= check;
		}
	}

	/** This table minus `older`: the table of the elements only here (+1) and only there (-1). */
	minus(older: Summary): Summary {
		if (older.size !== this.size) throw new Error('summaries of different sizes');
		const d = new Summary(this.size);
		for (let i = 0; i < this.size; i++) {
			// counts are kept modulo 2^16 (the encoded form): the difference, sign-extended
			d.count[i] = (((this.count[i] - older.count[i]) & 0xffff) << 16) >> 16;
			d.a[i] = this.a[i] ^ older.a[i];
			d.b[i] = this.b[i] ^ older.b[i];
			d.e[i] = this.e[i] ^ older.e[i];
			d.check[i] = this.check[i] ^ older.check[i];
		}
		return d;
	}

	/** The element alone in cell i (count ±1, its check hash and its cells agree), or undefined. */
	private pureAt(i: number): Element | undefined {
		if (this.count[i] !== 1 && this.count[i] !== -1) return undefined;
		const x = { a: this.a[i], b: this.b[i], e: this.e[i] };
		if (murmur3(x.a, x.b, x.e, CHECK_SEED) !== this.check[i]) return undefined;
		return this.cellsOf(x).includes(i) ? x : undefined;
	}

	/**
	 * Reads a difference table back (and empties it as far as it can): the elements counted +1
	 * (`added`) and -1 (`removed`); `complete` when nothing is left.
	 */
	peel(): { added: Element[]; removed: Element[]; complete: boolean } {
		const added: Element[] = [];
		const removed: Element[] = [];
		const queue: number[] = [];
		for (let i = 0; i < this.size; i++) if (this.pureAt(i)) queue.push(i);
		while (queue.length) {
			const i = queue.pop()!;
			const x = this.pureAt(i);
			if (!x) continue;
			const sign = this.count[i] as 1 | -1;
			(sign === 1 ? added : removed).push(x);
			this.add(x, sign === 1 ? -1 : 1);
			for (const j of this.cellsOf(x)) if (this.pureAt(j)) queue.push(j);
		}
		let complete = true;
		for (let i = 0; i < this.size && complete; i++) {
			if (this.count[i] || this.a[i] || this.b[i] || this.e[i] || this.check[i]) complete = false;
		}
		return { added, removed, complete };
	}

	/**
	 * After peel(): whether cell i still holds something. An element of the difference that peel()
	 * could not take out is in three such cells (one of them empty would mean the others in it
	 * cancel it out in every field, a chance of about 2^-128), so a listed object with one empty
	 * cell is not in what is left of the difference.
	 */
	holds(i: number): boolean {
		return (this.count[i] & 0xffff) !== 0 || this.a[i] !== 0 || this.b[i] !== 0 || this.e[i] !== 0 || this.check[i] !== 0;
	}

	/** Whether each of the element's three cells still holds something (after peel()). */
	mayHold(x: Element): boolean {
		for (const i of this.cellsOf(x)) if (!this.holds(i)) return false;
		return true;
	}

	/** The table as base64 (counts modulo 2^16). */
	encode(): string {
		const buf = Buffer.alloc(this.size * CELL_BYTES);
		for (let i = 0, o = 0; i < this.size; i++, o += CELL_BYTES) {
			buf.writeUInt16LE(this.count[i] & 0xffff, o);
			buf.writeUInt32LE(this.a[i], o + 2);
			buf.writeUInt32LE(this.b[i], o + 6);
			buf.writeUInt32LE(this.e[i], o + 10);
			buf.writeUInt32LE(this.check[i], o + 14);
		}
		return buf.toString('base64');
	}

	/** A table from `encode()`; undefined when the text is not one of `size` cells. */
	static decode(text: unknown, size: number): Summary | undefined {
		if (typeof text !== 'string') return undefined;
		const buf = Buffer.from(text, 'base64');
		if (buf.length !== size * CELL_BYTES) return undefined;
		const s = new Summary(size);
		for (let i = 0, o = 0; i < size; i++, o += CELL_BYTES) {
			s.count[i] = buf.readUInt16LE(o);
			s.a[i] = buf.readUInt32LE(o + 2);
			s.b[i] = buf.readUInt32LE(o + 6);
			s.e[i] = buf.readUInt32LE(o + 10);
			s.check[i] = buf.readUInt32LE(o + 14);
		}
		return s;
	}
}

/** Elements as base64, 12 bytes each. */
export function encodeElements(list: Element[]): string {
	const buf = Buffer.alloc(list.length * ELEMENT_BYTES);
	list.forEach((x, n) => {
		buf.writeUInt32LE(x.a, n * ELEMENT_BYTES);
		buf.writeUInt32LE(x.b, n * ELEMENT_BYTES + 4);
		buf.writeUInt32LE(x.e, n * ELEMENT_BYTES + 8);
	});
	return buf.toString('base64');
}

/** Elements from `encodeElements()`; undefined when the text is not such a list. */
export function decodeElements(text: unknown): Element[] | undefined {
	if (typeof text !== 'string') return undefined;
	const buf = Buffer.from(text, 'base64');
	if (buf.length % ELEMENT_BYTES !== 0) return undefined;
	const out: Element[] = [];
	for (let o = 0; o < buf.length; o += ELEMENT_BYTES) out.push({ a: buf.readUInt32LE(o), b: buf.readUInt32LE(o + 4), e: buf.readUInt32LE(o + 8) });
	return out;
}

/**
 * Age classes of a listing: for each class of LastModified, how many objects it holds and the XOR
 * of a 64-bit hash of each (key id and ETag id). Class 0 holds the objects modified in the
 * `WINDOW` before the reference time, class n those modified 2^(n-1) to 2^n windows before that,
 * the last class those with no time that reads. A class whose count and XOR are the same in two
 * listings holds the same objects in both (but for a 64-bit hash collision): so when the
 * difference summary cannot be read back, only objects of classes that differ can be new or
 * changed. 34 classes of 12 bytes: 544 characters of base64.
 */
export const AGE_CLASSES = 34;
const AGE_BYTES = 12;
const HASH_SEEDS = [0x68e31da4, 0xb5297a4d];

/** A 64-bit hash of an element (two 32-bit halves), for the XOR of a set of elements. */
export function elementHash(x: Element): [number, number] {
	return [murmur3(x.a, x.b, x.e, HASH_SEEDS[0]), murmur3(x.a, x.b, x.e, HASH_SEEDS[1])];
}

export class AgeClasses {
	readonly count = new Uint32Array(AGE_CLASSES);
	readonly lo = new Uint32Array(AGE_CLASSES);
	readonly hi = new Uint32Array(AGE_CLASSES);

	constructor(
		/** Reference time (ms): the start of the window of the state that holds this. */
		readonly reference: number,
		/** Width of class 0 (ms). */
		readonly window: number,
	) {}

	/** The class of a LastModified (ms; NaN when none): 0 for the window before the reference, then doubling. */
	classOf(time: number): number {
		if (Number.isNaN(time)) return AGE_CLASSES - 1;
		const windows = (this.reference - time) / this.window;
		if (windows <= 1) return 0;
		return Math.min(AGE_CLASSES - 2, Math.ceil(Math.log2(windows)));
	}

	add(x: Element, time: number): void {
		const c = this.classOf(time);
		const [lo, hi] = elementHash(x);
		this.count[c] = (this.count[c] + 1) >>> 0;
		this.lo[c] ^= lo;
		this.hi[c] ^= hi;
	}

	/** The classes whose objects differ from `other`'s (same reference and window). */
	differing(other: AgeClasses): boolean[] {
		return Array.from({ length: AGE_CLASSES }, (_, c) => this.count[c] !== other.count[c] || this.lo[c] !== other.lo[c] || this.hi[c] !== other.hi[c]);
	}

	encode(): string {
		const buf = Buffer.alloc(AGE_CLASSES * AGE_BYTES);
		for (let c = 0; c < AGE_CLASSES; c++) {
			buf.writeUInt32LE(this.count[c], c * AGE_BYTES);
			buf.writeUInt32LE(this.lo[c], c * AGE_BYTES + 4);
			buf.writeUInt32LE(this.hi[c], c * AGE_BYTES + 8);
		}
		return buf.toString('base64');
	}

	/** Classes from `encode()`; undefined when the text is not such a table. */
	static decode(text: unknown, reference: number, window: number): AgeClasses | undefined {
		if (typeof text !== 'string') return undefined;
		const buf = Buffer.from(text, 'base64');
		if (buf.length !== AGE_CLASSES * AGE_BYTES) return undefined;
		const out = new AgeClasses(reference, window);
		for (let c = 0; c < AGE_CLASSES; c++) {
			out.count[c] = buf.readUInt32LE(c * AGE_BYTES);
			out.lo[c] = buf.readUInt32LE(c * AGE_BYTES + 4);
			out.hi[c] = buf.readUInt32LE(c * AGE_BYTES + 8);
		}
		return out;
	}
}
