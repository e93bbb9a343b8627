/**
 * Key blocks of the Object Storage Trigger's state: the last listing (in key order) cut into at
 * most MAX_BLOCKS runs of consecutive keys, and per run the key id of its last key, how many
 * objects it holds and the XOR of a 64-bit hash of each (elementHash). When the difference summary
 * cannot be read back (summary.ts), the next listing is cut at the same keys, those still listed
 * (a run whose last key is gone is taken together with the next): a run that holds the same count
 * and hash holds the same objects (but for a 64-bit hash collision), so no object in it is new or
 * changed. What changed in a few folders (thousands of files deleted or added there) then leaves
 * the rest of the bucket out of what may be emitted again. 128 runs of 20 bytes: 3,416 characters
 * of base64.
 */
import { elementHash, keyIdString, type Element } from './summary';

export const MAX_BLOCKS = 128;
const BLOCK_BYTES = 20;

export interface Block {
	/** Key id of the run's last key. */
	a: number;
	b: number;
	count: number;
	lo: number;
	hi: number;
}

/** The runs of a listing whose objects are in key order. */
export function blocksOf(objects: Element[]): Block[] {
	const size = Math.max(1, Math.ceil(objects.length / MAX_BLOCKS));
	const blocks: Block[] = [];
	for (let start = 0; start < objects.length; start += size) {
		const block: Block = { a: 0, b: 0, count: 0, lo: 0, hi: 0 };
		for (let n = start; n < Math.min(objects.length, start + size); n++) {
			const [lo, hi] = elementHash(objects[n]);
			block.count++;
			block.lo ^= lo;
			block.hi ^= hi;
			block.a = objects[n].a;
			block.b = objects[n].b;
		}
		blocks.push(block);
	}
	return blocks;
}

export function encodeBlocks(blocks: Block[]): string {
	const buf = Buffer.alloc(blocks.length * BLOCK_BYTES);
	blocks.forEach((x, n) => {
		const o = n * BLOCK_BYTES;
		buf.writeUInt32LE(x.a, o);
		buf.writeUInt32LE(x.b, o + 4);
		buf.writeUInt32LE(x.count >>> 0, o + 8);
		buf.writeUInt32LE(x.lo >>> 0, o + 12);
		buf.writeUInt32LE(x.hi >>> 0, o + 16);
	});
	return buf.toString('base64');
}

/** Runs from `encodeBlocks()`; undefined when the text is not such a list. */
export function decodeBlocks(text: unknown): Block[] | undefined {
	if (typeof text !== 'string') return undefined;
	const buf = Buffer.from(text, 'base64');
	if (buf.length % BLOCK_BYTES !== 0 || buf.length > MAX_BLOCKS * BLOCK_BYTES) return undefined;
	const out: Block[] = [];
	for (let o = 0; o < buf.length; o += BLOCK_BYTES) {
		out.push({ a: buf.readUInt32LE(o), b: buf.readUInt32LE(o + 4), count: buf.readUInt32LE(o + 8), lo: buf.readUInt32LE(o + 12), hi: buf.readUInt32LE(o + 16) });
	}
	return out;
}

/**
 * Per object of a listing in key order: whether it is in a run whose objects differ from those
 * the previous listing had there (see the top of this file).
 */
export function inChangedRuns(before: Block[], objects: Element[]): boolean[] {
	const boundary = new Map(before.map((x, n) => [keyIdString(x), n]));
	const changed = new Array<boolean>(objects.length).fill(false);
	let from = 0; // first block of the current run
	let start = 0; // first object of the current run
	let count = 0;
	let lo = 0;
	let hi = 0;
	const close = (to: number, end: number) => {
		let c = 0;
		let l = 0;
		let h = 0;
		for (let n = from; n <= to && n < before.length; n++) {
			c += before[n].count;
			l ^= before[n].lo;
			h ^= before[n].hi;
		}
		if (c !== count || (l >>> 0) !== (lo >>> 0) || (h >>> 0) !== (hi >>> 0)) changed.fill(true, start, end);
		from = to + 1;
		start = end;
		count = 0;
		lo = 0;
		hi = 0;
	};
	for (let i = 0; i < objects.length; i++) {
		const [l, h] = elementHash(objects[i]);
		count++;
		lo ^= l;
		hi ^= h;
		const k = boundary.get(keyIdString(objects[i]));
		if (k !== undefined && k >= from) close(k, i + 1);
	}
	close(before.length - 1, objects.length);
	return changed;
}
