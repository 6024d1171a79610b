//! Parsers for Shardy text: meshes, `#sdy.sharding<...>` and `#sdy.sharding_per_value<[...]>`.
//! Whitespace is free between tokens. Sub-axes (`"x":(1)2`) are rejected as unsupported.

use crate::sharding::error::ShardingError;
use crate::sharding::sdy::{SdyAxis, SdyDim, SdyMesh, SdyMeshRef, SdySharding};
use crate::sharding::text::Cursor;

/// A mesh attribute: `<["x"=2, "y"=4]>`, `#sdy.mesh<...>` or `mesh<...>`, optionally with
/// `device_ids=[...]`.
pub fn parse_sdy_mesh(text: &str) -> Result<SdyMesh, ShardingError> {
    let mut c = Cursor::new(text);
    let _ = c.eat("#sdy.mesh") || c.eat_word("mesh");
    let mesh = mesh_body(&mut c)?;
    c.finish()?;
    Ok(mesh)
}

/// The module-level op `sdy.mesh @name = <...>`; returns the symbol name and the mesh.
pub fn parse_sdy_mesh_decl(text: &str) -> Result<(String, SdyMesh), ShardingError> {
    let mut c = Cursor::new(text);
    c.expect("sdy.mesh")?;
    let name = symbol(&mut c)?;
    c.expect("=")?;
    let mesh = mesh_body(&mut c)?;
    c.finish()?;
    Ok((name, mesh))
}

/// `#sdy.sharding<@mesh, [{"x"}, {}]>`, or the bare `<@mesh, [...]>`.
pub fn parse_sdy_sharding(text: &str) -> Result<SdySharding, ShardingError> {
    let mut c = Cursor::new(text);
    let _ = c.eat("#sdy.sharding");
    let sharding = sharding_body(&mut c)?;
    c.finish()?;
    Ok(sharding)
}

/// `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>`, or the bare `[...]` list.
pub fn parse_sdy_sharding_per_value(text: &str) -> Result<Vec<SdySharding>, ShardingError> {
    let mut c = Cursor::new(text);
    let wrapped = c.eat("#sdy.sharding_per_value");
    if wrapped {
        c.expect("<")?;
    }
    c.expect("[")?;
    let mut out = Vec::new();
    if !c.eat("]") {
        loop {
            out.push(sharding_body(&mut c)?);
            if c.eat("]") {
                break;
            }
            c.expect(",")?;
        }
    }
    if wrapped {
        c.expect(">")?;
    }
    c.finish()?;
    Ok(out)
}

fn symbol(c: &mut Cursor) -> Result<String, ShardingError> {
    c.expect("@")?;
    if c.peek() == Some('"') {
        c.quoted()
    } else {
        c.ident()
    }
}

fn mesh_body(c: &mut Cursor) -> Result<SdyMesh, ShardingError> {
    c.expect("<")?;
    c.expect("[")?;
    let mut axes = Vec::new();
    if !c.eat("]") {
        loop {
            let name = c.quoted()?;
            c.expect("=")?;
            let size = c.usize()?;
            axes.push(SdyAxis { name, size });
            if c.eat("]") {
                break;
            }
            c.expect(",")?;
        }
    }
    let mut device_ids = None;
    if c.eat(",") {
        if !c.eat_word("device_ids") {
            return Err(c.error("expected `device_ids`"));
        }
        c.expect("=")?;
        let ids = c.usize_list("[", "]")?;
        let ids = ids.into_iter().map(u32::try_from).collect::<Result<Vec<_>, _>>();
        device_ids = Some(ids.map_err(|_| c.error("device id too large"))?);
    }
    c.expect(">")?;
    let mut mesh = SdyMesh { axes, device_ids };
    mesh.validate().map_err(|e| c.error(e.to_string()))?;
    let is_iota = mesh.device_ids.as_ref().is_some_and(|ids| ids.iter().enumerate().all(|(i, &d)| d as usize == i));
    if is_iota && !mesh.axes.is_empty() {
        mesh.device_ids = None;
    }
    Ok(mesh)
}

fn sharding_body(c: &mut Cursor) -> Result<SdySharding, ShardingError> {
    c.expect("<")?;
    let mesh = if c.peek() == Some('@') {
        SdyMeshRef::Symbol(symbol(c)?)
    } else if c.eat_word("mesh") {
        SdyMeshRef::Inline(mesh_body(c)?)
    } else {
        return Err(c.error("expected `@mesh_name` or `mesh<...>`"));
    };
    c.expect(",")?;
    c.expect("[")?;
    let mut dims = Vec::new();
    if !c.eat("]") {
        loop {
            dims.push(dim(c)?);
            if c.eat("]") {
                break;
            }
            c.expect(",")?;
        }
    }
    let mut sharding = SdySharding { mesh, dims, replicated: vec![], unreduced: vec![] };
    while c.eat(",") {
        let list = if c.eat_word("replicated") {
            &mut sharding.replicated
        } else if c.eat_word("unreduced") {
            &mut sharding.unreduced
        } else {
            return Err(c.error("expected `replicated=` or `unreduced=`"));
        };
        c.expect("=")?;
        c.expect("{")?;
        if !c.eat("}") {
            loop {
                list.push(axis_ref(c)?);
                if c.eat("}") {
                    break;
                }
                c.expect(",")?;
            }
        }
    }
    c.expect(">")?;
    Ok(sharding)
}

fn dim(c: &mut Cursor) -> Result<SdyDim, ShardingError> {
    c.expect("{")?;
    let mut dim = SdyDim::default();
    loop {
        if c.eat("}") {
            break;
        }
        if c.eat("?") {
            dim.open = true;
            c.expect("}")?;
            break;
        }
        dim.axes.push(axis_ref(c)?);
        if !c.eat(",") {
            c.expect("}")?;
            break;
        }
        if c.peek() == Some('}') {
            return Err(c.error("expected an axis name or `?` after `,`"));
        }
    }
    if c.eat("p") {
        dim.priority = Some(c.uint()?);
    }
    Ok(dim)
}

fn axis_ref(c: &mut Cursor) -> Result<String, ShardingError> {
    let name = c.quoted()?;
    if c.peek() == Some(':') {
        return Err(ShardingError::Unsupported(format!("sub-axis of \"{name}\" (`\"{name}\":(k)m`)")));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_meshes() {
        let (name, mesh) = parse_sdy_mesh_decl(r#"sdy.mesh @mesh = <["x"=2, "y"=4]>"#).unwrap();
        assert_eq!(name, "mesh");
        assert_eq!(mesh.to_string(), r#"<["x"=2, "y"=4]>"#);
        let mesh = parse_sdy_mesh(r#" #sdy.mesh< [ "a" = 2 ] , device_ids = [ 1 , 0 ] > "#).unwrap();
        assert_eq!(mesh.device_ids, Some(vec![1, 0]));
        // An identity order is dropped, as Shardy prints it.
        assert_eq!(parse_sdy_mesh(r#"<["a"=2], device_ids=[0, 1]>"#).unwrap().device_ids, None);
        assert_eq!(parse_sdy_mesh("<[]>").unwrap().axes, vec![]);
        let (name, _) = parse_sdy_mesh_decl(r#"sdy.mesh @"my mesh" = <["a"=1]>"#).unwrap();
        assert_eq!(name, "my mesh");
    }

    #[test]
    fn rejects_bad_meshes() {
        for bad in [
            r#"<["a"=0]>"#,
            r#"<["a"=2, "a"=2]>"#,
            r#"<["a"=2], device_ids=[0]>"#,
            r#"<["a"=2], device_ids=[1, 1]>"#,
            r#"<["a"=2], device_ids=[2, 1]>"#,
            r#"<["a"=2], ids=[0, 1]>"#,
            r#"<["a"=2]"#,
            r#"<["a"=-2]>"#,
            r#"<[a=2]>"#,
            r#"<["a"=2]> trailing"#,
        ] {
            assert!(parse_sdy_mesh(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_shardings() {
        let s = parse_sdy_sharding(r#"#sdy.sharding<@mesh, [{"x"}, {}]>"#).unwrap();
        assert_eq!(s.mesh, SdyMeshRef::Symbol("mesh".into()));
        assert_eq!(s.dims[0].axes, vec!["x".to_string()]);
        assert!(s.dims[1].axes.is_empty() && !s.dims[1].open);
        let text = r#"#sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x", ?}p1, {?}], replicated={"y"}>"#;
        let s = parse_sdy_sharding(text).unwrap();
        assert_eq!(s.to_string(), text);
        assert!(s.dims[0].open && s.dims[1].open);
        assert_eq!(s.dims[0].priority, Some(1));
        assert_eq!(s.replicated, vec!["y".to_string()]);
        let spaced =
            parse_sdy_sharding("  #sdy.sharding < @mesh ,\n [ { \"x\" , \"y\" } ] , unreduced = { } >  ").unwrap();
        assert_eq!(spaced.to_string(), r#"#sdy.sharding<@mesh, [{"x", "y"}]>"#);
        assert_eq!(parse_sdy_sharding(r#"<@m, []>"#).unwrap().dims.len(), 0);
    }

    #[test]
    fn parses_per_value() {
        let text = r#"#sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}, {"y"}]>]>"#;
        let all = parse_sdy_sharding_per_value(text).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(crate::sharding::sdy::sharding_per_value(&all), text);
        assert!(parse_sdy_sharding_per_value("#sdy.sharding_per_value<[]>").unwrap().is_empty());
    }

    #[test]
    fn rejects_bad_shardings() {
        for bad in [
            "",
            "#sdy.sharding",
            r#"#sdy.sharding<mesh, [{"x"}]>"#,
            r#"#sdy.sharding<@mesh, [{"x",}]>"#,
            r#"#sdy.sharding<@mesh, [{x}]>"#,
            r#"#sdy.sharding<@mesh, [{"x"}]"#,
            r#"#sdy.sharding<@mesh, [{"x"}], foo={"y"}>"#,
            r#"#sdy.sharding<@mesh, [{?, "x"}]>"#,
            r#"#sdy.sharding<@mesh, [{"x"}p]>"#,
            r#"#sdy.sharding<@mesh, [{"x"}]> extra"#,
            r#"#sdy.sharding<@mesh, [{"x" "y"}]>"#,
        ] {
            assert!(parse_sdy_sharding(bad).is_err(), "{bad}");
        }
        let sub = parse_sdy_sharding(r#"#sdy.sharding<@mesh, [{"x":(1)2}]>"#).unwrap_err();
        assert!(matches!(sub, ShardingError::Unsupported(_)), "{sub}");
    }
}
