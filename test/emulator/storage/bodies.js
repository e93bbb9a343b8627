'use strict';
/**
 * Where object and part bodies live. Nothing here ever holds a whole body in one Buffer.
 *
 *   memory mode  body = { chunks: [Buffer, ...], size }   the Buffers as they arrived
 *   disk mode    body = { file: 'objects/<uuid>', size }   relative to <dataDir>/storage
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

	/** Drop a body that is no longer referenced. */
	discard(body) {
		if (body && body.file && this.dir) fsp.rm(this.abs(body), { force: true }).catch(() => {});
	}

	/** A body made from a Buffer (seeding, restore of memory snapshots, control routes). */
	fromBuffer(buf) {
		if (!this.dir) return { chunks: buf.length ? [buf] : [], size: buf.length };
		const file = path.join('objects', crypto.randomUUID());
		fs.writeFileSync(path.join(this.dir, file), buf);
		return { file, size: buf.length };
	}

	/** Concatenate part bodies into one object body without building one big Buffer. */
	async concat(parts) {
		const size = parts.reduce((n, b) => n + b.size, 0);
		if (!this.dir) return { chunks: parts.flatMap((b) => b.chunks), size };
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
			for (const part of parts) {
				for await (const chunk of fs.createReadStream(this.abs(part), { highWaterMark: 1 << 20 })) {
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
		let handle;
		try {
			handle = await fsp.open(this.abs(body), 'r');
		} catch (err) {
			if (err.code === 'ENOENT') return null;
			throw err;
		}
		return fs.createReadStream(null, { fd: handle, start, end, highWaterMark: 1 << 20 });
	}

	/** JSON form of a body for snapshot(). Memory bodies go as base64. */
	toJSON(body) {
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
		if (!this.dir || !fs.existsSync(path.join(this.dir, saved.file))) return null;
		return { file: saved.file, size: saved.size };
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
