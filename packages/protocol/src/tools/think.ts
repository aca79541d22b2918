import { Type } from '@sinclair/typebox';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const ThinkAction = action('ThinkAction', 'Think out loud; changes nothing.', {
  thought: Type.String({ description: 'The thought to log.' }),
});

export const ThinkObservation = observation('ThinkObservation', 'The thought was logged.', {});

export const ThinkTool = toolDefinition('ThinkTool', 'Logs a thought.');

export const thinkShapes = singleTool(ThinkAction, ThinkObservation, ThinkTool);
