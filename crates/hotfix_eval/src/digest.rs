//! `digest`: `hashlib.new(algorithm)` over the value encoded as Latin-1, as hex.

use std::fmt::Write as _;

use sha2::Digest as _;

/// The algorithms computed here (every name `hashlib.algorithms_guaranteed` has that needs no
/// length argument, except the SHA-3 and BLAKE2 families).
pub const ALGORITHMS: [&str; 6] = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"];

/// The hex digest, `None` for an algorithm not computed here.
pub(crate) fn hexdigest(algorithm: &str, bytes: &[u8]) -> Option<String> {
    let out: Vec<u8> = match algorithm {
        "md5" => md5::Md5::digest(bytes).to_vec(),
        "sha1" => sha1::Sha1::digest(bytes).to_vec(),
        "sha224" => sha2::Sha224::digest(bytes).to_vec(),
        "sha256" => sha2::Sha256::digest(bytes).to_vec(),
        "sha384" => sha2::Sha384::digest(bytes).to_vec(),
        "sha512" => sha2::Sha512::digest(bytes).to_vec(),
        _ => return None,
    };
    let mut hex = String::with_capacity(out.len() * 2);
    for b in out {
        let _ = write!(hex, "{b:02x}");
    }
    Some(hex)
}
