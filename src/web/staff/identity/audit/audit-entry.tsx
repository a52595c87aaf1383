import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CAMPAIGN_SUBJECT, DONATION_SUBJECT, DONOR_SUBJECT, MAIL_SUBJECT, PLAN_SUBJECT, STAFF_MEMBER_SUBJECT } from '../../../../shared/staff/audit-actions';
import { formatInstant } from '../../components/format';
import { StaffLink } from '../../components/staff-link';
import { campaignPagePath, donationPagePath, donorPagePath, planPagePath, STAFF_PAGES } from '../../staff-paths';
import { auditSentence, type AuditEntryLike } from './audit-sentence';

/**
 * An audit entry's record as a link to its page (issue #36, part 1: "the audit's subjects link to their records (plans
 * included)"): a donation, a plan, a donor, a campaign, the team, the mail; any other record as its kind and id.
 */
export function AuditSubjectLink({ subjectType, subjectId }: { subjectType: string | null; subjectId: string | null }) {
  if (!subjectId) return <>—</>;
  const short = subjectId.slice(0, 8);
  switch (subjectType) {
    case DONATION_SUBJECT:
      return <StaffLink to={donationPagePath(subjectId)}>Donation {short}</StaffLink>;
    case PLAN_SUBJECT:
      return <StaffLink to={planPagePath(subjectId)}>Plan {short}</StaffLink>;
    case DONOR_SUBJECT:
      return <StaffLink to={donorPagePath(subjectId)}>Donor {short}</StaffLink>;
    case CAMPAIGN_SUBJECT:
      return <StaffLink to={campaignPagePath(subjectId)}>Campaign {short}</StaffLink>;
    case STAFF_MEMBER_SUBJECT:
      return <StaffLink to={STAFF_PAGES.team}>Team member {short}</StaffLink>;
    case MAIL_SUBJECT:
      return <StaffLink to={STAFF_PAGES.mail}>E-mail {short}</StaffLink>;
    default:
      return <>{`${(subjectType ?? 'record').replace(/_/g, ' ')} ${subjectId}`}</>;
  }
}

/** An entry's details as labelled values (`<dl>`), or nothing when it has none. */
export function AuditDetails({ details }: { details: [string, string][] }) {
  if (details.length === 0) return null;
  return (
    <Box component="dl" sx={{ m: 0, mt: 0.5, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2 }}>
      {details.map(([label, value], index) => (
        <Box key={`${label}-${index}`} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * One entry in a list of them (a donor's page, a donation's timeline): when, the sentence (auditSentence, with `who`
 * the person's name when known), and the details folded behind a disclosure so the list stays readable.
 */
export function AuditEntryItem({ entry, at, who }: { entry: AuditEntryLike; at: string; who?: string }) {
  const { sentence, details } = auditSentence(entry, who);
  return (
    <>
      <Typography component="span" sx={{ fontWeight: 600 }}>
        {formatInstant(at)}
      </Typography>{' '}
      <span style={{ overflowWrap: 'anywhere' }}>{sentence}.</span>
      {details.length > 0 && (
        <details>
          <summary>Details</summary>
          <AuditDetails details={details} />
        </details>
      )}
    </>
  );
}
