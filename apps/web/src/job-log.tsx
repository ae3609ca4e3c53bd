import Convert from 'ansi-to-html';
import { useEffect, useMemo, useState } from 'react';
import { logSections } from './log-sections';

const ansi = new Convert({ escapeXML: true, newline: false, fg: '#e6e6e6', bg: '#161b22' });

/** Log text with its colours, as HTML that ansi-to-html escaped (escapeXML) before adding its spans. */
function Ansi(props: { text: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the text is escaped by ansi-to-html (escapeXML)
  return <span dangerouslySetInnerHTML={{ __html: ansi.toHtml(props.text) }} />;
}

/** The most log text a page keeps (characters): past it, the oldest lines go, so a huge log never fills memory. */
const MAX_SHOWN = 2_000_000;

function keepTail(text: string): string {
  if (text.length <= MAX_SHOWN) return text;
  const cut = text.indexOf('\n', text.length - MAX_SHOWN);
  return cut === -1 ? text.slice(-MAX_SHOWN) : text.slice(cut + 1);
}

type Status = 'streaming' | 'done' | 'failed';

/**
 * A job's log, streamed from the server (server-sent events, a page of chunks at a time) while the job
 * runs and read to its end once it has finished; colours rendered, sections foldable.
 */
export function JobLog(props: { organization: string; pipeline: string; number: number; job: string }) {
  const [text, setText] = useState('');
  const [trimmed, setTrimmed] = useState(false);
  const [status, setStatus] = useState<Status>('streaming');
  const path = `/live/jobs/${encodeURIComponent(props.organization)}/${encodeURIComponent(props.pipeline)}/${props.number}/${props.job}/log`;

  useEffect(() => {
    setText('');
    setTrimmed(false);
    setStatus('streaming');
    const source = new EventSource(path);
    source.addEventListener('chunk', (event) => {
      const content = JSON.parse((event as MessageEvent<string>).data) as string;
      setText((before) => {
        const next = keepTail(before + content);
        if (next.length < before.length + content.length) setTrimmed(true);
        return next;
      });
    });
    source.addEventListener('end', () => {
      source.close();
      setStatus('done');
    });
    source.addEventListener('failure', () => {
      source.close();
      setStatus('failed');
    });
    // The browser reconnects by itself (resuming after the last chunk); a refusal (401, 404) closes it.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setStatus('failed');
    };
    return () => source.close();
  }, [path]);

  const sections = useMemo(() => logSections(text), [text]);
  return (
    <section className="log" aria-label="Job log" aria-busy={status === 'streaming'}>
      <p className="log-status" role="status">
        {status === 'streaming'
          ? 'Streaming the log…'
          : status === 'done'
            ? 'End of log'
            : 'The log could not be read'}
      </p>
      {trimmed ? <p className="muted">The beginning of this long log is not shown here.</p> : null}
      {sections.length === 0 && status !== 'streaming' ? <p className="muted">No output.</p> : null}
      <div className="log-lines">
        {sections.map((section, index) => {
          const lines = <Ansi text={section.lines.join('\n')} />;
          if (section.title === null) return <div key={section.start}>{lines}</div>;
          // The section still being written stays open, so a running job's output is seen as it comes.
          const open = section.expanded || (status === 'streaming' && index === sections.length - 1);
          return (
            <details key={section.start} open={open} className="log-section">
              <summary>
                <Ansi text={section.title} />
              </summary>
              {lines}
            </details>
          );
        })}
      </div>
    </section>
  );
}
