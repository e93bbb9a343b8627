'use strict';
/**
 * Where object and part bodies live. Nothing here ever holds a whole body in one Buffer.
 *
 *   memory mode  body = { chunks: [Buffer, ...], size }   the Buffers as they arrived
 *   disk mode    body = { file: 'objects/<uuid>', size }   relative to <dataDir>/storage
 *                or { files: [{ file, size }, ...], size } an object made by Complete Multipart
 *                Upload: its parts' files, hard-linked into objects/, read one after the other
 *                (as S3 does, Complete costs no copy of the bytes)
 *
 * A body being received goes to tmp/ first (disk) and is committed (renamed) only once the
 * request is known to be good, so a failed upload never leaves a partial object behind.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const path = require('node:path');
const { Readable, Transform, Writable } = require('node:stream');
const { pipeline } = require('node:stream/promises');

class Bodies {
	constructor(dataDir) {
		this.dir = dataDir ? path.join(dataDir, 'storage') : null;
		if (this.dir) {
			for (const sub of ['objects', 'parts'])
				fs.mkdirSync(path.join(this.dir, sub), { recursive: true });
			fs.rmSync(path.join(this.dir, 'tmp'), { recursive: true, force: true });
			fs.mkdirSync(path.join(this.dir, 'tmp'), { recursive: true });
		}
	}

	abs(body) {
		return path.join(this.dir, body.file);
	}

	/** Stream `source` into a pending body, hashing as it goes. Resolves { body, size, md5 } (md5 a Buffer). */
	async receive(source) {
		const hash = crypto.createHash('md5');
		let size = 0;
		const meter = new Transform({
			transform(chunk, _enc, cb) {
				hash.update(chunk);
				size += chunk.length;
				cb(null, chunk);
			},
		});
		if (this.dir) {
			const file = path.join('tmp', crypto.randomUUID());
			try {
				await pipeline(source, meter, fs.createWriteStream(path.join(this.dir, file)));
			} catch (err) {
				await fsp.rm(path.join(this.dir, file), { force: true });
				throw err;
			}
			return { body: { file, size }, size, md5: hash.digest() };
		}
		const chunks = [];
		await pipeline(
			source,
			meter,
			new Writable({
				write(chunk, _enc, cb) {
					chunks.push(chunk);
					cb();
				},
			}),
		);
		return { body: { chunks, size }, size, md5: hash.digest() };
	}

	/** Move a received body from tmp/ to its final place (`kind` is 'objects' or 'parts'). */
	async commit(body, kind) {
		if (!this.dir) return body;
		const file = path.join(kind, path.basename(body.file));
		await fsp.rename(path.join(this.dir, body.file), path.join(this.dir, file));
		return { file, size: body.size };
	}

	/** The files (relative to the storage dir) a disk body is made of. */
	filesOf(body) {
		return pieces(body).map((piece) => piece.file);
	}

	/** Drop a body that is no longer referenced. */
	discard(body) {
		if (!body || !this.dir) return;
		for (const piece of pieces(body)) fsp.rm(this.abs(piece), { force: true }).catch(() => {});
	}

	/** A body made from a Buffer (seeding, restore of memory snapshots, control routes). */
	fromBuffer(buf) {
		if (!this.dir) return { chunks: buf.length ? [buf] : [], size: buf.length };
		const file = path.join('objects', crypto.randomUUID());
		fs.writeFileSync(path.join(this.dir, file), buf);
		return { file, size: buf.length };
	}

	/**
	 * One object body made of part bodies, without building one big Buffer. On disk the part
	 * files are hard-linked into objects/ (the parts may then be discarded); where the file
	 * system refuses links, the bytes are copied into one file.
	 */
	async concat(parts) {
		const size = parts.reduce((n, b) => n + b.size, 0);
		if (!this.dir) return { chunks: parts.flatMap((b) => b.chunks), size };
		const linked = [];
		try {
			for (const part of parts) {
				for (const piece of pieces(part)) {
					const file = path.join('objects', crypto.randomUUID());
					await fsp.link(this.abs(piece), path.join(this.dir, file));
					linked.push({ file, size: piece.size });
				}
			}
			return { files: linked, size };
		} catch {
			for (const piece of linked) await fsp.rm(this.abs(piece), { force: true });
			return this.copyConcat(parts, size);
		}
	}

	/** concat() by copying the bytes into one new file. */
	async copyConcat(parts, size) {
		const file = path.join('tmp', crypto.randomUUID());
		const out = fs.createWriteStream(path.join(this.dir, file));
		// One error listener for the whole concatenation; the parts are written chunk by chunk
		// with backpressure, so no listeners pile up on `out` however many parts there are.
		let failed = null;
		let wake = null;
		const onError = (err) => {
			failed ??= err;
			if (wake) wake();
		};
		out.on('error', onError);
		const drained = () =>
			new Promise((resolve) => {
				wake = resolve;
				out.once('drain', resolve);
			}).finally(() => {
				out.removeListener('drain', wake);
				wake = null;
			});
		try {
			for (const piece of parts.flatMap(pieces)) {
				for await (const chunk of fs.createReadStream(this.abs(piece), { highWaterMark: 1 << 20 })) {
					if (failed) throw failed;
					if (!out.write(chunk)) await drained();
				}
				if (failed) throw failed;
			}
			await new Promise((resolve, reject) => {
				if (failed) return reject(failed);
				out.once('error', reject);
				out.end(resolve);
			});
		} catch (err) {
			out.destroy();
			await fsp.rm(path.join(this.dir, file), { force: true });
			throw err;
		} finally {
			out.removeListener('error', onError);
		}
		return this.commit({ file, size }, 'objects');
	}

	/**
	 * Open a body for reading bytes start..end (inclusive). Opening happens before the response
	 * starts, so a body replaced in the meantime is still read whole. Resolves a Readable, or
	 * null when the file has gone.
	 */
	async open(body, start, end) {
		if (end < start) return Readable.from([]);
		if (body.chunks)
			return Readable.from(sliceChunks(body.chunks, start, end), { objectMode: false });
		// the files and byte ranges that hold start..end, all opened before reading starts
		const ranges = [];
		let offset = 0;
		try {
			for (const piece of pieces(body)) {
				const next = offset + piece.size;
				if (piece.size > 0 && next > start && offset <= end) {
					const handle = await fsp.open(this.abs(piece), 'r');
					ranges.push({ handle, start: Math.max(0, start - offset), end: Math.min(piece.size, end - offset + 1) - 1 });
				}
				offset = next;
				if (offset > end) break;
			}
		} catch (err) {
			for (const r of ranges) await r.handle.close();
			if (err.code === 'ENOENT') return null;
			throw err;
		}
		if (ranges.length === 1) {
			const [r] = ranges;
			return fs.createReadStream(null, { fd: r.handle, start: r.start, end: r.end, highWaterMark: 1 << 20 });
		}
		return Readable.from(readRanges(ranges), { objectMode: false });
	}

	/** JSON form of a body for snapshot(). Memory bodies go as base64. */
	toJSON(body) {
		if (body.files) return { files: body.files, size: body.size };
		if (body.file) return { file: body.file, size: body.size };
		return { data: Buffer.concat(body.chunks).toString('base64'), size: body.size };
	}

	/** Body from its JSON form; null when its file is gone. */
	fromJSON(saved) {
		if (saved.data !== undefined) {
			const buf = Buffer.from(saved.data, 'base64');
			return this.dir
				? this.fromBuffer(buf)
				: { chunks: buf.length ? [buf] : [], size: buf.length };
		}
		if (!this.dir || !pieces(saved).every((piece) => fs.existsSync(this.abs(piece)))) return null;
		return saved.files ? { files: saved.files, size: saved.size } : { file: saved.file, size: saved.size };
	}

	/** Remove files in objects/ and parts/ that no body refers to (after a restore). */
	sweep(referenced) {
		if (!this.dir) return;
		for (const sub of ['objects', 'parts']) {
			for (const name of fs.readdirSync(path.join(this.dir, sub))) {
				const rel = path.join(sub, name);
				if (!referenced.has(rel)) fs.rmSync(path.join(this.dir, rel), { force: true });
			}
		}
	}

	/** Remove every stored body. */
	clear() {
		if (!this.dir) return;
		for (const sub of ['objects', 'parts', 'tmp']) {
			fs.rmSync(path.join(this.dir, sub), { recursive: true, force: true });
			fs.mkdirSync(path.join(this.dir, sub), { recursive: true });
		}
	}
}

/** The files of a disk body: one, or its parts'. */
function pieces(body) {
	if (body.files) return body.files;
	return body.file ? [body] : [];
}

/** Reads the given byte ranges of opened files one after the other, closing each when done. */
async function* readRanges(ranges) {
	let i = 0;
	try {
		for (; i < ranges.length; i++) {
			const r = ranges[i];
			const stream = fs.createReadStream(null, { fd: r.handle, start: r.start, end: r.end, highWaterMark: 1 << 20 });
			for await (const chunk of stream) yield chunk;
		}
	} finally {
		// ranges not reached (the reader went away) still hold their handles
		for (i++; i < ranges.length; i++) await ranges[i].handle.close().catch(() => {});
	}
}

function* sliceChunks(chunks, start, end) {
	let offset = 0;
	for (const chunk of chunks) {
		const next = offset + chunk.length;
		if (next > start && offset <= end) {
			yield chunk.subarray(Math.max(0, start - offset), Math.min(chunk.length, end - offset + 1));
		}
		if (next > end) return;
		offset = next;
	}
}

module.exports = { Bodies };
