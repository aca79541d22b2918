import { Type } from '@sinclair/typebox';
import { kindShape } from '../schema/builders.ts';
import { observation, singleTool, toolDefinition } from './shapes.ts';

export const FinishAction = kindShape(
  'FinishAction',
  { message: Type.String({ description: 'Final message to send to the user.' }) },
  { description: 'End the run with a final message.' },
);

export const FinishObservation = observation('FinishObservation', {}, 'The run ended; `content` is the final message.');

export const FinishTool = toolDefinition('FinishTool', 'Ends the run with a final message.');

export const finishShapes = singleTool(FinishAction, FinishObservation, FinishTool);
