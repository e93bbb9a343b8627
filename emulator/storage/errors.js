'use strict';
/** Error codes of the storage emulator (docs/vendor/readings.md#r16, plus the S3 codes for 304/412/416/501). */
const STATUS = {
	NoSuchBucket: 404,
	NoSuchKey: 404,
	NoSuchUpload: 404,
	BucketAlreadyExists: 409,
	BucketNotEmpty: 409,
	AccessDenied: 403,
	SignatureDoesNotMatch: 403,
	InvalidAccessKeyId: 403,
	RequestTimeTooSkewed: 403,
	InvalidDigest: 400,
	BadDigest: 400,
	InvalidPart: 400,
	InvalidPartOrder: 400,
	InvalidBucketName: 400,
	InvalidArgument: 400,
	MalformedXML: 400,
	MissingContentLength: 411,
	PreconditionFailed: 412,
	InvalidRange: 416,
	MethodNotAllowed: 405,
	NotImplemented: 501,
	SlowDown: 503,
	InternalError: 500,
};

class S3Error extends Error {
	constructor(code, message, extra = {}, headers = {}) {
		super(message);
		this.code = code;
		this.status = STATUS[code] || 400;
		this.extra = extra; // further elements of the error body
		this.headers = headers; // further response headers
	}
}

module.exports = { S3Error, STATUS };
