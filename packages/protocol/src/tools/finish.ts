import { Type } from '@sinclair/typebox';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

export const FinishAction = action('FinishAction', 'End the run with a final message.', {
  message: Type.String({ description: 'Final message to send to the user.' }),
});

export const FinishObservation = observation('FinishObservation', 'The run ended; `content` is the final message.', {});

export const FinishTool = toolDefinition('FinishTool', 'Ends the run with a final message.');

export const finishShapes = singleTool(FinishAction, FinishObservation, FinishTool);
