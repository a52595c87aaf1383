import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { getSiteConfig } from '../../config/site-config';

/**
 * The snippets that put the donation flow on another site (issue #35; decision 0104), ready to copy: the form in place,
 * the button that opens it in a dialog, and, for a campaign, its goal bar. Each is embed.js's `<script>` and one
 * `<reef-donate>` element, for `campaign` when given (its slug). The site's PUBLIC_URL is where they load from; the host's
 * origin must be in EMBED_ORIGINS (README, "Embedding").
 */
export function EmbedSnippets({ campaign }: { campaign?: string }) {
  const base = getSiteConfig().publicUrl.replace(/\/+$/, '');
  // NOTE: not deferred, and before the element: the element then reserves its height as the page is read, so nothing
  // after it moves when it appears (issue #35); the script is under 3 kB.
  const script = `<script src="${base}/embed.js"></script>`;
  const attribute = campaign === undefined ? '' : ` campaign="${campaign}"`;
  const snippets: [string, string][] = [
    ['The form, in place', `${script}\n<reef-donate${attribute}></reef-donate>`],
    ['A button that opens it in a dialog', `${script}\n<reef-donate mode="button" label="Donate"${attribute}></reef-donate>`],
  ];
  if (campaign !== undefined) snippets.push(["The campaign's goal bar", `${script}\n<reef-donate mode="goal"${attribute}></reef-donate>`]);
  return (
    <Box component="section" aria-labelledby="embed-snippets-heading" sx={{ mt: 3 }}>
      <Typography component="h2" variant="h6" id="embed-snippets-heading" sx={{ fontSize: '1.1rem' }}>
        On another website
      </Typography>
      <p>
        Paste one of these into a page of a site listed in EMBED_ORIGINS. Attributes <code>amount</code>, <code>frequency</code>,{' '}
        <code>cause</code> and <code>lang</code> (en, es) work as in a campaign link.
      </p>
      {snippets.map(([label, code]) => (
        <Snippet key={label} label={label} code={code} />
      ))}
    </Box>
  );
}

/** One snippet: its label, its code, and a button that copies it (and says so). */
function Snippet({ label, code }: { label: string; code: string }) {
  const [copied, setCopied] = useState(false);
  const id = `snippet-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Box sx={{ mb: 2 }}>
      <Typography component="h3" id={id} sx={{ fontWeight: 600, fontSize: '1rem' }}>
        {label}
      </Typography>
      <Box component="pre" aria-labelledby={id} tabIndex={0} sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', bgcolor: '#f5f5f5', p: 1.5, my: 1 }}>
        <code>{code}</code>
      </Box>
      <Button
        variant="outlined"
        size="small"
        aria-describedby={id}
        onClick={() => {
          void navigator.clipboard.writeText(code).then(() => setCopied(true));
        }}
      >
        Copy
      </Button>
      <Box component="span" role="status" sx={{ ml: 1 }}>
        {copied ? 'Copied' : ''}
      </Box>
    </Box>
  );
}
