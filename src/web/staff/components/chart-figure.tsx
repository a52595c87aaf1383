import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';

/**
 * A chart with its figures as a table (issue #22: "each with the same figures as a table beside it or one keypress
 * away, so nobody needs to see the chart to read it"): a section with a heading (not a landmark of its own: its table
 * is the region of that name), the chart as one image named by
 * `chartLabel` (its drawing is not read out: the table says the same), and the table beside it on a wide screen and
 * under it on a narrow one; with `tableHidden`, the table sits behind a "Show as table" button (one keypress:
 * aria-expanded says whether it is open).
 */
export function ChartFigure({ title, chartLabel, chart, table, tableHidden = false }: { title: string; chartLabel: string; chart: ReactNode; table: ReactNode; tableHidden?: boolean }) {
  const tableId = useId();
  const [open, setOpen] = useState(!tableHidden);
  return (
    <Paper component="section" variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mb: 3 }}>
      <Typography component="h2" variant="h6" sx={{ fontSize: '1.1rem', mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: tableHidden ? 'minmax(0, 1fr)' : 'minmax(0, 3fr) minmax(0, 2fr)' }, gap: 2, alignItems: 'start' }}>
        <Box role="img" aria-label={chartLabel} sx={{ minWidth: 0 }}>
          {chart}
        </Box>
        <div>
          {tableHidden && (
            <Button variant="outlined" size="small" aria-expanded={open} aria-controls={tableId} onClick={() => setOpen((value) => !value)} sx={{ mb: 1 }}>
              {open ? 'Hide the table' : 'Show as table'}
            </Button>
          )}
          <div id={tableId} hidden={!open}>
            {table}
          </div>
        </div>
      </Box>
    </Paper>
  );
}
