/**
 * The service's time as this process knows it. Every request carries the date it was signed at
 * (the prefixed date header) and a presigned URL its expiry; a service whose clock is more than
 * 15 minutes away answers RequestTimeTooSkewed, whose Date header gives the correction, kept per
 * endpoint for the life of the process.
 */

/** Clock corrections learned from RequestTimeTooSkewed answers, per endpoint. */
const clockOffsets = new Map<string, number>();

/** The service's time as far as this process knows it (corrected after a RequestTimeTooSkewed). */
export function serviceNow(endpoint: string): number {
	return Date.now() + (clockOffsets.get(endpoint) ?? 0);
}

/** Learns the endpoint's clock from the Date header of its answer; false when the header is no date. */
export function learnServiceClock(endpoint: string, dateHeader: string): boolean {
	const serverTime = Date.parse(dateHeader);
	if (Number.isNaN(serverTime)) return false;
	clockOffsets.set(endpoint, serverTime - Date.now());
	return true;
}
