//! Widgets the duel's terminal UIs share: the board and the dice line.

use ply_ewn::duel::rules::{COLS, ROWS};
use ply_ewn::duel::{Board, Color};
use ratatui::style::{Color as Tint, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

/// The 6 x 7 board, `R`/`B` and the cube number per cell; `highlight` may restyle a cell.
pub(super) fn board_widget(
    board: &Board,
    title: String,
    highlight: impl Fn(u8, Style) -> Style,
) -> Paragraph<'static> {
    let lines: Vec<Line<'static>> = (0..ROWS)
        .map(|r| {
            let spans: Vec<Span<'static>> = (0..COLS)
                .map(|c| {
                    let cell = (r * COLS + c) as u8;
                    let (text, style) = match board.at(cell) {
                        Some((Color::Red, k)) => {
                            (format!(" R{k} "), Style::default().fg(Tint::Red))
                        }
                        Some((Color::Blue, k)) => {
                            (format!(" B{k} "), Style::default().fg(Tint::Blue))
                        }
                        None => (" .. ".to_string(), Style::default().fg(Tint::DarkGray)),
                    };
                    Span::styled(text, highlight(cell, style))
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    Paragraph::new(lines).block(Block::bordered().title(title))
}

/// The 21 dice with the die of the ply to play highlighted.
pub(super) fn dice_widget(board: &Board) -> Paragraph<'static> {
    let now = board.ply() as usize % board.dice().len();
    let spans: Vec<Span<'static>> = board
        .dice()
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let style = if i == now {
                Style::default().fg(Tint::Black).bg(Tint::Yellow)
            } else {
                Style::default()
            };
            Span::styled(format!("{d} "), style)
        })
        .collect();
    Paragraph::new(Line::from(spans)).block(Block::bordered().title(" dice "))
}
