/** Yes/no and on/off switches, written the ways the service takes them. */
import type { OptionDecl } from '../declarations';

/** `1 yes / 0 no` integer switches, shown as Yes/No choices. */
export const YES_NO: OptionDecl[] = [
	{ name: 'Yes', value: 1 },
	{ name: 'No', value: 0 },
];

/** The same switch where the service takes the digit as a string (`"1"` / `"0"`). */
export const YES_NO_STRING: OptionDecl[] = [
	{ name: 'Yes', value: '1' },
	{ name: 'No', value: '0' },
];

/** `on` / `off` switches (channel settings). */
export const ON_OFF: OptionDecl[] = [
	{ name: 'On', value: 'on' },
	{ name: 'Off', value: 'off' },
];
