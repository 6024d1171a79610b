//! Parser for GSPMD sharding strings: `{replicated}`, `{manual}`, `{maximal device=N}`,
//! `{devices=[...]...}` with explicit or iota device lists and subgroup clauses, and tuples
//! `{{...}, {...}}`. Whitespace is free between tokens; `metadata={...}` is skipped.

use crate::sharding::error::ShardingError;
use crate::sharding::gspmd::{DeviceOrder, GspmdSharding, SubgroupKind, TileAssignment};
use crate::sharding::text::Cursor;

pub fn parse_gspmd(text: &str) -> Result<GspmdSharding, ShardingError> {
    let mut c = Cursor::new(text);
    let sharding = sharding(&mut c)?;
    c.finish()?;
    Ok(sharding)
}

fn sharding(c: &mut Cursor) -> Result<GspmdSharding, ShardingError> {
    c.expect("{")?;
    if c.peek() == Some('{') {
        let mut items = vec![sharding(c)?];
        while c.eat(",") {
            items.push(sharding(c)?);
        }
        c.expect("}")?;
        return Ok(GspmdSharding::Tuple(items));
    }
    if c.eat("}") {
        return Ok(GspmdSharding::Tuple(vec![]));
    }
    let result = if c.eat_word("replicated") {
        GspmdSharding::Replicated
    } else if c.eat_word("manual") {
        GspmdSharding::Manual
    } else if c.eat_word("maximal") {
        if !c.eat_word("device") {
            return Err(c.error("expected `device=` after `maximal`"));
        }
        c.expect("=")?;
        GspmdSharding::Maximal { device: c.u32()? }
    } else if c.eat_word("devices") {
        c.expect("=")?;
        tiled(c)?
    } else {
        return Err(c.error("expected replicated, manual, maximal or devices="));
    };
    loop {
        if c.eat_word("metadata") {
            c.expect("=")?;
            c.skip_braced()?;
        } else if c.eat("}") {
            return Ok(result);
        } else {
            return Err(c.error("unexpected text in sharding"));
        }
    }
}

fn tiled(c: &mut Cursor) -> Result<GspmdSharding, ShardingError> {
    let start = c.offset();
    let dims = c.usize_list("[", "]")?;
    let devices = if c.eat("<=") {
        let reshape = c.usize_list("[", "]")?;
        // `T(` must follow `]` directly, as XLA prints it.
        let transpose = if c.eat("T") { c.usize_list("(", ")")? } else { vec![] };
        DeviceOrder::Iota { reshape, transpose }
    } else {
        let mut list = vec![c.u32()?];
        while c.eat(",") {
            list.push(c.u32()?);
        }
        DeviceOrder::Explicit(list)
    };
    let mut subgroups = Vec::new();
    if c.eat_word("last_tile_dim_replicate") {
        subgroups.push(SubgroupKind::Replicated);
    } else if c.eat_word("last_tile_dims") {
        c.expect("=")?;
        c.expect("{")?;
        loop {
            let kind = if c.eat_word("replicated") {
                SubgroupKind::Replicated
            } else if c.eat_word("manual") {
                SubgroupKind::Manual
            } else {
                return Err(c.error("expected `replicated` or `manual` (other subgroup kinds are unsupported)"));
            };
            subgroups.push(kind);
            if c.eat("}") {
                break;
            }
            c.expect(",")?;
        }
    }
    let assignment = TileAssignment::new(dims, devices, subgroups).map_err(|e| match e {
        ShardingError::Invalid(message) => c.error_at(start, message),
        e => e,
    })?;
    Ok(GspmdSharding::Tiled(assignment))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) {
        let parsed = parse_gspmd(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn canonical_forms_round_trip() {
        for text in [
            "{replicated}",
            "{manual}",
            "{maximal device=3}",
            "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
            "{devices=[2,2]0,2,1,3}",
            "{devices=[4,2]<=[2,4]T(1,0)}",
            "{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}",
            "{{replicated}, {maximal device=0}, {devices=[2]<=[2]}}",
        ] {
            round_trip(text);
        }
    }

    #[test]
    fn whitespace_and_metadata() {
        let text = " { devices = [ 2 , 1 , 4 ] <= [ 8 ] last_tile_dim_replicate metadata={op_name=\"a}b\"} } ";
        let parsed = parse_gspmd(text).unwrap();
        assert_eq!(parsed.to_string(), "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
        let parsed = parse_gspmd("{replicated metadata={}}").unwrap();
        assert_eq!(parsed, GspmdSharding::Replicated);
    }

    #[test]
    fn last_tile_dims_replicated_means_the_same_as_last_tile_dim_replicate() {
        let a = parse_gspmd("{devices=[2,1,4]<=[8] last_tile_dims={replicated}}").unwrap();
        let b = parse_gspmd("{devices=[2,1,4]<=[8] last_tile_dim_replicate}").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn explicit_and_iota_lists_agree() {
        let iota = parse_gspmd("{devices=[4,2]<=[2,4]T(1,0)}").unwrap();
        let list = parse_gspmd("{devices=[4,2]0,4,1,5,2,6,3,7}").unwrap();
        assert_ne!(iota, list);
        assert_eq!(iota.placement(2, &[]).unwrap(), list.placement(2, &[]).unwrap());
    }

    #[test]
    fn rejects_bad_strings() {
        for bad in [
            "",
            "{",
            "{}}",
            "replicated",
            "{replicated",
            "{replicated} x",
            "{replicate}",
            "{maximal}",
            "{maximal device=-1}",
            "{devices=[2,2]0,1,2}",
            "{devices=[2,2]0,1,2,2}",
            "{devices=[2,2]<=[8]}",
            "{devices=[2,2]<=[2,2]T(0)}",
            "{devices=[2,2]<=[2,2]T(1,1)}",
            "{devices=[2,2]<=[4] last_tile_dims={unreduced}}",
            "{devices=[2,2]<=[4] last_tile_dims={}}",
            "{devices=[2,2]<=[4] bogus}",
            "{devices=[]<=[1]}",
            "{devices=[0]}",
            "{devices=[99999999999999999999]<=[1]}",
            "{devices=[2]0,99999999999}",
            "{replicated metadata={}",
        ] {
            assert!(parse_gspmd(bad).is_err(), "{bad}");
        }
    }
}
