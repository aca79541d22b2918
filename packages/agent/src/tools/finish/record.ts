import { finishShapes } from '@bosun/protocol';
import { alwaysToolRecord } from '../tool-record.ts';
import { createFinishTool } from './index.ts';

export const finishRecord = alwaysToolRecord('finish', finishShapes, createFinishTool);
