import { thinkShapes } from '@bosun/protocol';
import { alwaysToolRecord } from '../tool-record.ts';
import { createThinkTool } from './index.ts';

export const thinkRecord = alwaysToolRecord('think', thinkShapes, createThinkTool);
