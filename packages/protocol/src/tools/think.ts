import { Type } from '@sinclair/typebox';
import { kindShape } from '../schema/builders.ts';
import { observation, singleTool, toolDefinition } from './shapes.ts';

export const ThinkAction = kindShape(
  'ThinkAction',
  { thought: Type.String({ description: 'The thought to log.' }) },
  { description: 'Think out loud; changes nothing.' },
);

export const ThinkObservation = observation('ThinkObservation', {}, 'The thought was logged.');

export const ThinkTool = toolDefinition('ThinkTool', 'Logs a thought.');

export const thinkShapes = singleTool(ThinkAction, ThinkObservation, ThinkTool);
