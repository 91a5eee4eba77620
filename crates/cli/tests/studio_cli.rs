//! `ply studio`: it prints its address with the token, serves the page, refuses a request
//! without the token, and stops on SIGINT with the shell's status; bad options are usage
//! errors.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{ply, text, wait_within};

/// A GET of `path` on `port` with the Host header `host`: the status line and the body.
fn get(port: u16, host: &str, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the studio listens");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.lines().next().unwrap_or_default().to_string();
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn the_studio_serves_until_interrupted() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["studio", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim();
    let rest = url
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("{url}"));
    let (port, token) = rest.split_once("/?token=").expect("a token in the address");
    let port: u16 = port.parse().unwrap();
    let host = format!("127.0.0.1:{port}");
    let (status, body) = get(port, &host, "/");
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("ply studio"));
    let (status, body) = get(port, &host, "/api/jobs");
    assert!(status.contains("401"), "{status}");
    assert!(body.contains("no token"), "{body}");
    let (status, body) = get(port, &host, &format!("/api/jobs?token={token}"));
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("\"jobs\":[]"), "{body}");
    let (status, _) = get(port, &format!("rebound.example:{port}"), "/");
    assert!(status.contains("403"), "{status}");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::SIGINT,
    )
    .unwrap();
    let out = wait_within(child, Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("ply: error: ply studio stopped"));
}

#[test]
fn bad_options_are_named() {
    let out = ply(&["studio", "--port", "0", "--jobs", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("ply: error: jobs 0 is not in 1..=256"));
    let out = ply(
        &["studio", "--port", "0", "--host", "no.such.host.invalid"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("ply: error: cannot listen on no.such.host.invalid:0"));
}
