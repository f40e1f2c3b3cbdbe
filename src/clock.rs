//! Wall-clock time as RFC 3339 UTC text, without a date library. I/O edge only.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, as `2026-11-22T04:27:00Z` (or with `.ffffff` microseconds when `micros`).
pub fn now_rfc3339(micros: bool) -> String {
    let d = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    format_unix(d.as_secs() as i64, if micros { Some(d.subsec_micros()) } else { None })
}

/// Format seconds since the epoch (UTC).
pub fn format_unix(secs: i64, micros: Option<u32>) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    let (h, mi, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    match micros {
        Some(us) => format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{us:06}Z"),
        None => format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_dates() {
        assert_eq!(super::format_unix(0, None), "1970-01-01T00:00:00Z");
        assert_eq!(super::format_unix(1_795_321_644, None), "2026-11-22T04:27:24Z");
        assert_eq!(super::format_unix(951_782_400, Some(5)), "2000-02-29T00:00:00.000005Z");
    }
}
