import { Type } from '@sinclair/typebox';
import { nullable } from './builders.ts';

/** Field groups that shapes of several resources share, spread where they stand in each shape. */

/** The name of a listed thing and its description (null: it has none). */
export const describedName = () => ({ name: Type.String(), description: nullable(Type.String()) });

/** The pattern of a string that holds more than white space (a name or source of spaces names nothing). */
export const NOT_BLANK = '\\S';
