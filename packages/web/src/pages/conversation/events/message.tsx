import type { MessageContent } from '@bosun/protocol';
import { createContext, useContext } from 'react';
import { Badge } from '../../../ui/feedback.tsx';
import { Markdown } from '../render/markdown.tsx';
import { type MessageEvent, textOf } from '../timeline/model.ts';
import { Reasoning, Time } from './parts.tsx';

/** Who the user's messages are shown as: "You" to their author, "User" to anyone reading a shared copy. */
export const UserVoice = createContext({ who: 'You', said: 'You said' });
export const READER_VOICE = { who: 'User', said: 'The user said' };

/** A user's or the agent's message, as Markdown, with its images. */
export function MessageRow({ event }: { event: MessageEvent }) {
  const voice = useContext(UserVoice);
  const message = event.llm_message;
  const fromUser = event.source === 'user';
  const text = textOf(message.content);
  const images = (message.content as MessageContent[]).flatMap((part) =>
    part.type === 'image' ? part.image_urls : [],
  );
  return (
    <article
      className={`message ${fromUser ? 'message-user' : 'message-agent'}`}
      aria-label={fromUser ? voice.said : 'The agent said'}
    >
      <header className="row-head">
        <span className="who">{fromUser ? voice.who : (event.sender ?? 'Agent')}</span>
        <Time at={event.timestamp} />
        {event.activated_skills.map((skill) => (
          <Badge key={skill} tone="info" title="A skill this message activated">
            {skill}
          </Badge>
        ))}
      </header>
      <Reasoning text={message.reasoning_content} blocks={message.thinking_blocks} />
      {text ? <Markdown text={text} /> : images.length === 0 && <p className="muted">(no text)</p>}
      {images.length > 0 && (
        <div className="message-images">
          {images.map((url, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a message's fixed images
            <img key={index} src={url} alt={`Attachment ${index + 1} of the message`} loading="lazy" />
          ))}
        </div>
      )}
    </article>
  );
}
