import { Column, Row, Section } from '@react-email/components';
import { plainTextRole } from '../../mail/plain-text';
import type { ReceiptLine } from '../receipt-view';

/**
 * Labelled lines as a two-column table (label in bold), the receipt's and a recurring plan's lines (issues #12, #13).
 * In the plain-text part each is a line of its own, `Label: value` (issue #19; mail/plain-text.ts).
 */
export function LabelledLines({ lines }: { lines: ReceiptLine[] }) {
  return (
    <Section>
      {lines.map((line) => (
        <Row key={line.label} {...plainTextRole('line')}>
          <Column {...plainTextRole('label')} style={{ width: '40%', fontWeight: 'bold', padding: '4px 0' }}>
            {line.label}
          </Column>
          <Column style={{ padding: '4px 0' }}>{line.value}</Column>
        </Row>
      ))}
    </Section>
  );
}
