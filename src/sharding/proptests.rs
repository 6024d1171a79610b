//! Property tests: print/parse round trips, and sdy, GSPMD and spec placements agree.

use proptest::prelude::*;

use crate::sharding::*;

/// A random mesh: axis sizes, axis names, and an identity or shuffled device order.
fn mesh_strategy() -> impl Strategy<Value = NamedMesh> {
    let size = prop::sample::select(vec![1usize, 2, 3, 4, 8]);
    let names = prop::sample::select(vec![("x", "y"), ("data", "model"), ("b", "a"), ("dp", "mp.1")]);
    (size.clone(), size, names, any::<bool>())
        .prop_flat_map(|(n0, n1, names, shuffle)| {
            let ids: Vec<u32> = (0..(n0 * n1) as u32).collect();
            let order = if shuffle { Just(ids).prop_shuffle().boxed() } else { Just(ids).boxed() };
            (Just((n0, n1, names)), order)
        })
        .prop_map(|((n0, n1, (a, b)), ids)| {
            NamedMesh::new([n0, n1])
                .and_then(|m| m.with_axis_names(a, b))
                .and_then(|m| m.with_device_ids(ids))
                .expect("generated meshes are valid")
        })
}

/// A random valid spec of rank 0..=4 on `shape`, possibly naming size-1 axes, and a tensor
/// shape it divides.
fn spec_strategy(shape: [usize; 2]) -> impl Strategy<Value = (ShardingSpec, Vec<i64>)> {
    (0usize..=4)
        .prop_flat_map(|rank| {
            let axis = prop::option::of(0..rank.max(1));
            (Just(rank), axis.clone(), axis, any::<bool>(), prop::collection::vec(1i64..4, rank))
        })
        .prop_map(move |(rank, a0, a1, axis1_major, factors)| {
            let mut dims = vec![DimSharding::R; rank];
            let (a0, a1) = if rank == 0 { (None, None) } else { (a0, a1) };
            if let Some(d) = a0 {
                dims[d] = DimSharding::S0;
            }
            if let Some(d) = a1 {
                dims[d] = if a0 == Some(d) {
                    if axis1_major {
                        DimSharding::S10
                    } else {
                        DimSharding::S01
                    }
                } else {
                    DimSharding::S1
                };
            }
            let spec = ShardingSpec::new(dims).expect("each axis used once");
            let tensor = spec.parts_per_dim(shape).iter().zip(&factors).map(|(&p, &k)| p as i64 * k).collect();
            (spec, tensor)
        })
}

fn mesh_and_spec() -> impl Strategy<Value = (NamedMesh, ShardingSpec, Vec<i64>)> {
    mesh_strategy().prop_flat_map(|mesh| {
        let shape = mesh.shape();
        (Just(mesh), spec_strategy(shape)).prop_map(|(m, (s, t))| (m, s, t))
    })
}

proptest! {
    #[test]
    fn sdy_round_trip((mesh, spec, _) in mesh_and_spec()) {
        let (name, sdy_mesh) = parse_sdy_mesh_decl(&mesh.sdy_decl()).unwrap();
        prop_assert_eq!(&NamedMesh::from_sdy(&name, &sdy_mesh).unwrap(), &mesh);
        let printed = spec.to_sdy(&mesh).to_string();
        let parsed = parse_sdy_sharding(&printed).unwrap();
        prop_assert_eq!(&parsed, &spec.to_sdy(&mesh));
        prop_assert_eq!(parsed.to_string(), printed);
        prop_assert_eq!(ShardingSpec::from_sdy(&parsed, &mesh).unwrap(), spec.normalized(mesh.shape()));
    }

    #[test]
    fn gspmd_round_trip((mesh, spec, _) in mesh_and_spec()) {
        let printed = spec.to_gspmd(&mesh).to_string();
        let parsed = parse_gspmd(&printed).unwrap();
        prop_assert_eq!(&parsed, &spec.to_gspmd(&mesh));
        prop_assert_eq!(parsed.to_string(), printed.clone());
        let back = ShardingSpec::from_gspmd(&parsed, spec.rank(), &mesh);
        prop_assert_eq!(back.unwrap(), spec.normalized(mesh.shape()), "{}", printed);
    }

    /// The key property: the sdy text and the GSPMD text of one spec put the same tile on every
    /// device, each computed from its own parsed form only.
    #[test]
    fn sdy_and_gspmd_place_tiles_alike((mesh, spec, _) in mesh_and_spec()) {
        let (_, sdy_mesh) = parse_sdy_mesh_decl(&mesh.sdy_decl()).unwrap();
        let sdy = parse_sdy_sharding(&spec.to_sdy(&mesh).to_string()).unwrap();
        let from_sdy = sdy.placement(&sdy_mesh).unwrap();
        let all_devices: Vec<u32> = (0..sdy_mesh.num_devices()).map(|p| sdy_mesh.device_id(p)).collect();
        let gspmd_text = spec.to_gspmd(&mesh).to_string();
        let from_gspmd = parse_gspmd(&gspmd_text).unwrap().placement(spec.rank(), &all_devices).unwrap();
        prop_assert_eq!(&from_sdy, &from_gspmd, "{} vs {}", sdy, gspmd_text);
        prop_assert_eq!(&from_sdy, &spec.placement(&mesh));
        prop_assert_eq!(from_sdy.num_replicas(), Some(spec.num_replicas(mesh.shape())));
    }

    /// The explicit device list of any tiled assignment means what its iota form means.
    #[test]
    fn explicit_and_iota_forms_agree((mesh, spec, _) in mesh_and_spec()) {
        if let GspmdSharding::Tiled(t) = spec.to_gspmd(&mesh) {
            let explicit = TileAssignment::new(
                t.dims().to_vec(),
                DeviceOrder::Explicit(t.expand()),
                t.subgroups().to_vec(),
            ).unwrap();
            let a = parse_gspmd(&GspmdSharding::Tiled(t).to_string()).unwrap();
            let b = parse_gspmd(&GspmdSharding::Tiled(explicit).to_string()).unwrap();
            prop_assert_eq!(a.placement(spec.rank(), &[]).unwrap(), b.placement(spec.rank(), &[]).unwrap());
        }
    }

    /// Arbitrary iotas with transposes, against their expanded lists.
    #[test]
    fn random_iota_assignments(
        reshape in prop::collection::vec(1usize..=4, 1..=3),
        seed in any::<u64>(),
        replicate in any::<bool>(),
    ) {
        let mut transpose: Vec<usize> = (0..reshape.len()).collect();
        let mut s = seed;
        for i in (1..transpose.len()).rev() {
            transpose.swap(i, (s % (i as u64 + 1)) as usize);
            s /= i as u64 + 1;
        }
        let dims: Vec<usize> = transpose.iter().map(|&p| reshape[p]).collect();
        let subgroups = if replicate { vec![SubgroupKind::Replicated] } else { vec![] };
        let iota = DeviceOrder::Iota { reshape: reshape.clone(), transpose: transpose.clone() };
        let a = TileAssignment::new(dims.clone(), iota, subgroups.clone()).unwrap();
        let b = TileAssignment::new(dims, DeviceOrder::Explicit(a.expand()), subgroups).unwrap();
        let pa = parse_gspmd(&GspmdSharding::Tiled(a).to_string()).unwrap();
        let pb = parse_gspmd(&GspmdSharding::Tiled(b).to_string()).unwrap();
        let rank = match &pa { GspmdSharding::Tiled(t) => t.tensor_rank(), _ => 0 };
        prop_assert_eq!(pa.placement(rank, &[]).unwrap(), pb.placement(rank, &[]).unwrap());
    }

    #[test]
    fn tile_shapes_divide((mesh, spec, tensor) in mesh_and_spec()) {
        let tile = spec.tile_shape(&tensor, mesh.shape()).unwrap();
        let parts = spec.parts_per_dim(mesh.shape());
        for d in 0..tensor.len() {
            prop_assert_eq!(tile[d] * parts[d] as i64, tensor[d]);
        }
        prop_assert_eq!(spec.num_tiles(mesh.shape()) * spec.num_replicas(mesh.shape()), mesh.num_devices());
    }

    #[test]
    fn parsers_never_panic(text in "[{}<>\\[\\]=,?@#\"a-z0-9 .:()T_-]{0,40}") {
        let _ = parse_gspmd(&text);
        let _ = parse_sdy_sharding(&text);
        let _ = parse_sdy_sharding_per_value(&text);
        let _ = parse_sdy_mesh(&text);
        let _ = parse_sdy_mesh_decl(&text);
        let _ = text.parse::<ShardingSpec>();
    }

    #[test]
    fn parsers_never_panic_near_valid_text(
        (mesh, spec, _) in mesh_and_spec(),
        cut in 0usize..80,
        junk in "[{}<>\\[\\],=?0-9a-z\" ]{0,3}",
    ) {
        for text in [spec.to_gspmd(&mesh).to_string(), spec.to_sdy(&mesh).to_string(), mesh.sdy_decl()] {
            let mut at = cut.min(text.len());
            while !text.is_char_boundary(at) { at -= 1; }
            let mutated = format!("{}{}{}", &text[..at], junk, &text[at..]);
            let _ = parse_gspmd(&mutated);
            let _ = parse_sdy_sharding(&mutated);
            let _ = parse_sdy_mesh_decl(&mutated);
        }
    }
}
