/**
 * The requests an upload run has in flight, and the memory they send from. Upload's items run at
 * once up to "Concurrent Requests", and the parts of a large file share the same bound: every
 * request of the run (a whole-file PUT, Initiate, each part, Complete, Abort) holds a slot while
 * it is in flight, and a part (or a streamed file's ring of pieces) is read into its slot's own
 * buffer. So the service never sees more than that many requests of the run at once, and the
 * memory for bodies is at most that many buffers, whatever the mix of small and large files.
 *
 * A holder never waits for a second slot: work that needs several requests in a row (the first
 * part of a file of unknown size, then Initiate, then that part) makes them one after another
 * in the slot it holds.
 */

/** One request in flight at a time, and the buffer it reads its body into. */
export interface Slot {
	/** `size` bytes of this slot's buffer (made, or made larger, on first need; then reused). */
	buffer(size: number): Buffer;
}

class OwnSlot implements Slot {
	private own: Buffer | undefined;

	buffer(size: number): Buffer {
		if (!this.own || this.own.length < size) this.own = Buffer.allocUnsafeSlow(size);
		return this.own.subarray(0, size);
	}
}

/** At most `size` slots held at once; the others wait in the order they asked. */
export class RequestSlots {
	private readonly free: OwnSlot[];

	private readonly waiting: Array<(slot: OwnSlot) => void> = [];

	constructor(readonly size: number) {
		this.free = Array.from({ length: Math.max(1, Math.floor(size)) }, () => new OwnSlot());
	}

	/** Runs `work` holding a slot; the slot is free again when it settles. */
	async run<T>(work: (slot: Slot) => Promise<T>): Promise<T> {
		const slot = this.free.pop() ?? (await new Promise<OwnSlot>((resolve) => this.waiting.push(resolve)));
		try {
			return await work(slot);
		} finally {
			const next = this.waiting.shift();
			if (next) next(slot);
			else this.free.push(slot);
		}
	}
}
