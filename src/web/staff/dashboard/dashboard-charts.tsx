import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { CAUSE_DETAILS } from '../../../shared/causes';
import type { StaffDashboard } from '../../../shared/staff/dashboard-api';
import { centsToDollars } from '../../../shared/money';
import { formatCents, formatDay } from '../components/format';
import { HeadedTable } from '../components/scroll-table';
import { ChartFigure } from '../components/chart-figure';
import { formatMonth, PERIOD_LABELS } from './dashboard-labels';

/**
 * The dashboard's charts (issue #22, "Dashboard /staff"), drawn with MUI X Charts (decision 0077), each with the same
 * figures as a table (ChartFigure): net raised per day over the last 30 days, per month of this year, and per cause over
 * the selected period, each beside a year before. Colours: the theme's primary for now, a grey for a year before, told
 * apart by the legend's words and the line's dashes too, never by colour alone (WCAG 1.4.1). NOTE: the charts' own
 * keyboard navigation (a focusable proxy inside the drawing, without a visible focus) is off: the chart is one image,
 * and its table, reached with Tab, gives the keyboard and screen readers every figure.
 */

/** Axis and tooltip values: dollars as money. */
const money = (value: number | null) => (value === null ? '' : formatCents(Math.round(value * 100)));
const CHART_HEIGHT = 260;
const YEAR_BEFORE_COLOR = '#5f6368';

/** Net per day of the last 30 days (a line, a dashed one a year before), its table behind "Show as table". */
export function DailyChart({ daily }: { daily: StaffDashboard['daily'] }) {
  return (
    <ChartFigure
      title="Net raised per day, last 30 days"
      chartLabel="Line chart of the net raised each day of the last 30 days and on the same days a year before; the table has the same figures."
      tableHidden
      chart={
        <LineChart
          height={CHART_HEIGHT}
          skipAnimation
          disableKeyboardNavigation
          xAxis={[{ scaleType: 'point', data: daily.map((entry) => entry.date), valueFormatter: (date: string) => formatDay(date).replace(/, \d{4}$/, '') }]}
          yAxis={[{ valueFormatter: money, width: 72 }]}
          series={[
            { label: 'Net raised', data: daily.map((entry) => centsToDollars(entry.netCents)), valueFormatter: money, showMark: false },
            { label: 'A year before', data: daily.map((entry) => centsToDollars(entry.yearBeforeNetCents)), valueFormatter: money, showMark: false, color: YEAR_BEFORE_COLOR, id: 'year-before' },
          ]}
          sx={{ '& .MuiLineElement-series-year-before': { strokeDasharray: '6 4' } }}
        />
      }
      table={
        <HeadedTable label="Net raised per day, last 30 days" headers={['Day', 'Net raised', 'A year before']}>
          {daily.map((entry) => (
            <TableRow key={entry.date}>
              <TableCell component="th" scope="row">
                {formatDay(entry.date)}
              </TableCell>
              <TableCell>{formatCents(entry.netCents)}</TableCell>
              <TableCell>{formatCents(entry.yearBeforeNetCents)}</TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      }
    />
  );
}

/** Net per month of this year to today, with the same months a year before (bars), the table beside. */
export function MonthlyChart({ monthly }: { monthly: StaffDashboard['monthly'] }) {
  return (
    <ChartFigure
      title="Net raised per month, this year"
      chartLabel="Bar chart of the net raised each month of this year to today and in the same months a year before; the table beside has the same figures."
      chart={
        <BarChart
          height={CHART_HEIGHT}
          skipAnimation
          disableKeyboardNavigation
          xAxis={[{ scaleType: 'band', data: monthly.map((entry) => entry.month), valueFormatter: (month: string) => formatMonth(month).slice(0, 3) }]}
          yAxis={[{ valueFormatter: money, width: 72 }]}
          series={[
            { label: 'Net raised', data: monthly.map((entry) => centsToDollars(entry.netCents)), valueFormatter: money },
            { label: 'A year before', data: monthly.map((entry) => centsToDollars(entry.yearBeforeNetCents)), valueFormatter: money, color: YEAR_BEFORE_COLOR },
          ]}
        />
      }
      table={
        <HeadedTable label="Net raised per month, this year" headers={['Month', 'Net raised', 'A year before']}>
          {monthly.map((entry) => (
            <TableRow key={entry.month}>
              <TableCell component="th" scope="row">
                {formatMonth(entry.month)}
              </TableCell>
              <TableCell>{formatCents(entry.netCents)}</TableCell>
              <TableCell>{formatCents(entry.yearBeforeNetCents)}</TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      }
    />
  );
}

/** Net per cause over the selected period, with a year before (horizontal bars), the table beside. */
export function CauseChart({ dashboard }: { dashboard: Pick<StaffDashboard, 'byCause' | 'selected'> }) {
  const period = PERIOD_LABELS[dashboard.selected.period].toLowerCase();
  const names = dashboard.byCause.map((row) => CAUSE_DETAILS[row.cause].displayName);
  return (
    <ChartFigure
      title={`Net raised by cause, ${period}`}
      chartLabel={`Bar chart of the net raised for each cause, ${period}, and a year before; the table beside has the same figures.`}
      chart={
        <BarChart
          height={CHART_HEIGHT + 40}
          layout="horizontal"
          skipAnimation
          disableKeyboardNavigation
          yAxis={[{ scaleType: 'band', data: names, width: 110 }]}
          xAxis={[{ valueFormatter: money }]}
          series={[
            { label: 'Net raised', data: dashboard.byCause.map((row) => centsToDollars(row.netCents)), valueFormatter: money },
            { label: 'A year before', data: dashboard.byCause.map((row) => centsToDollars(row.yearBeforeNetCents)), valueFormatter: money, color: YEAR_BEFORE_COLOR },
          ]}
        />
      }
      table={
        <HeadedTable label={`Net raised by cause, ${period}`} headers={['Cause', 'Gifts', 'Net raised', 'A year before']}>
          {dashboard.byCause.map((row) => (
            <TableRow key={row.cause}>
              <TableCell component="th" scope="row">
                {CAUSE_DETAILS[row.cause].displayName}
              </TableCell>
              <TableCell>{row.count.toLocaleString('en-US')}</TableCell>
              <TableCell>{formatCents(row.netCents)}</TableCell>
              <TableCell>{formatCents(row.yearBeforeNetCents)}</TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      }
    />
  );
}
