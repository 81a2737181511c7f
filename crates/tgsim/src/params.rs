//! Request parameters of a Bot API call, from the query string and a JSON, form-encoded or
//! multipart body. In form and query encodings every value is a string, and nested objects
//! (reply_markup, entities, allowed_updates, scope) arrive as JSON text; the accessors accept both.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::error::{ApiError, descriptions};

/// The merged parameters of one call (body values win over query values), and the files a
/// multipart body uploaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Params(Map<String, Value>, Vec<FilePart>);

/// A file uploaded in a multipart body: the part's name, the file name and type it declared,
/// and its bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FilePart {
    /// The form field (`document`, or the name an `attach://` reference uses).
    pub name: String,
    /// The `filename` of its `Content-Disposition`.
    pub file_name: String,
    /// Its `Content-Type`, when given.
    pub content_type: Option<String>,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

impl Params {
    /// Parses the query string and the body according to its content type.
    pub(crate) fn parse(
        query: Option<&str>,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Result<Self, ApiError> {
        let mut map = Map::new();
        let mut files = Vec::new();
        if let Some(query) = query {
            for (k, v) in form_urlencoded::parse(query.as_bytes()) {
                map.insert(k.into_owned(), Value::String(v.into_owned()));
            }
        }
        let raw_type = content_type.unwrap_or("");
        let content_type = raw_type.to_ascii_lowercase();
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(map, files));
        }
        if content_type.starts_with("application/json") {
            match serde_json::from_slice::<Value>(body) {
                Ok(Value::Object(obj)) => map.extend(obj),
                _ => {
                    return Err(ApiError::bad_request(
                        "Bad Request: can't parse JSON object",
                    ));
                }
            }
        } else if content_type.starts_with("multipart/form-data") {
            let boundary = raw_type
                .split(';')
                .find_map(|p| p.trim().strip_prefix("boundary="))
                .map(|b| b.trim_matches('"').to_owned())
                .ok_or_else(|| ApiError::bad_request("Bad Request: can't parse multipart body"))?;
            for part in multipart(body, &boundary) {
                match part.file_name {
                    Some(file_name) => {
                        // The call log shows a file part by its name, as before.
                        map.insert(part.name.clone(), Value::String(file_name.clone()));
                        files.push(FilePart {
                            name: part.name,
                            file_name,
                            content_type: part.content_type,
                            bytes: part.value,
                        });
                    }
                    None => {
                        let text = String::from_utf8_lossy(&part.value).into_owned();
                        map.insert(part.name, Value::String(text));
                    }
                }
            }
        } else {
            for (k, v) in form_urlencoded::parse(body) {
                map.insert(k.into_owned(), Value::String(v.into_owned()));
            }
        }
        Ok(Self(map, files))
    }

    /// The file uploaded as the multipart part `name`, if any.
    pub(crate) fn file(&self, name: &str) -> Option<&FilePart> {
        self.1.iter().find(|f| f.name == name)
    }

    /// All parameters as JSON, for the call log.
    pub(crate) fn to_value(&self) -> Value {
        Value::Object(self.0.clone())
    }

    /// True when the parameter is present and not null.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.0.get(key).is_some_and(|v| !v.is_null())
    }

    /// A string parameter; numbers and booleans are given as their JSON text.
    pub(crate) fn str(&self, key: &str) -> Option<String> {
        match self.0.get(key)? {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        }
    }

    /// An integer parameter; `Err(())` when present but not an integer.
    pub(crate) fn int(&self, key: &str) -> Result<Option<i64>, ()> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n.as_i64().map(Some).ok_or(()),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => s.trim().parse().map(Some).map_err(|_| ()),
            Some(_) => Err(()),
        }
    }

    /// A boolean parameter: `true`, `"true"`, `"1"` and `1` are true; absent is false.
    pub(crate) fn flag(&self, key: &str) -> bool {
        match self.0.get(key) {
            Some(Value::Bool(b)) => *b,
            Some(Value::Number(n)) => n.as_i64() == Some(1),
            Some(Value::String(s)) => matches!(s.to_ascii_lowercase().as_str(), "true" | "1"),
            _ => false,
        }
    }

    /// A nested JSON parameter, given as JSON or as JSON text. `Ok(None)` when absent.
    pub(crate) fn json<T: DeserializeOwned>(
        &self,
        key: &str,
    ) -> Result<Option<T>, serde_json::Error> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => serde_json::from_str(s).map(Some),
            Some(v) => T::deserialize(v).map(Some),
        }
    }

    /// The `chat_id` as a number. "@username" and other text resolve to no chat in the simulator.
    pub(crate) fn chat_id(&self) -> Result<i64, ApiError> {
        if !self.has("chat_id") {
            return Err(ApiError::bad_request(descriptions::CHAT_ID_EMPTY));
        }
        match self.int("chat_id") {
            Ok(Some(id)) => Ok(id),
            Ok(None) => Err(ApiError::bad_request(descriptions::CHAT_ID_EMPTY)),
            Err(()) => Err(ApiError::bad_request(descriptions::CHAT_NOT_FOUND)),
        }
    }

    /// The `chat_id` if it is a number, for fault selection and the call log.
    pub(crate) fn chat_hint(&self) -> Option<i64> {
        self.int("chat_id").ok().flatten()
    }
}

/// One part of a multipart body.
struct Part {
    name: String,
    file_name: Option<String>,
    content_type: Option<String>,
    value: Vec<u8>,
}

/// The parts of a multipart body (RFC 7578), read as bytes so that uploaded files arrive
/// unchanged; a part without a name is skipped.
fn multipart(body: &[u8], boundary: &str) -> Vec<Part> {
    // A delimiter is CRLF, `--` and the boundary; the first one may open the body without CRLF.
    let delimiter = format!("\r\n--{boundary}").into_bytes();
    let mut framed = b"\r\n".to_vec();
    framed.extend_from_slice(body);
    let mut parts = Vec::new();
    for chunk in split_bytes(&framed, &delimiter).into_iter().skip(1) {
        if chunk.starts_with(b"--") {
            break;
        }
        let chunk = chunk.strip_prefix(b"\r\n").unwrap_or(chunk);
        let Some(split) = find(chunk, b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&chunk[..split]);
        let value = &chunk[split + 4..];
        let header = |name: &str| {
            head.lines()
                .find_map(|l| {
                    let (key, rest) = l.split_once(':')?;
                    key.trim().eq_ignore_ascii_case(name).then(|| rest.trim())
                })
                .map(str::to_owned)
        };
        let disposition = header("content-disposition").unwrap_or_default();
        let attr = |name: &str| {
            disposition
                .split(';')
                .find_map(|p| {
                    p.trim()
                        .strip_prefix(name)
                        .and_then(|v| v.strip_prefix('='))
                })
                .map(|v| v.trim_matches('"').to_owned())
        };
        let Some(name) = attr("name") else { continue };
        parts.push(Part {
            name,
            file_name: attr("filename"),
            content_type: header("content-type"),
            value: value.to_vec(),
        });
    }
    parts
}

/// `haystack` split at every occurrence of `needle`.
fn split_bytes<'a>(haystack: &'a [u8], needle: &[u8]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    let mut rest = haystack;
    while let Some(at) = find(rest, needle) {
        pieces.push(&rest[..at]);
        rest = &rest[at + needle.len()..];
    }
    pieces.push(rest);
    pieces
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_form_query_and_multipart_agree() {
        let json = Params::parse(
            None,
            Some("application/json"),
            br#"{"chat_id":5,"reply_markup":{"a":1}}"#,
        )
        .unwrap();
        let form = Params::parse(
            None,
            Some("application/x-www-form-urlencoded"),
            b"chat_id=5&reply_markup=%7B%22a%22%3A1%7D",
        )
        .unwrap();
        let query =
            Params::parse(Some("chat_id=5&reply_markup=%7B%22a%22%3A1%7D"), None, b"").unwrap();
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"chat_id\"\r\n\r\n5\r\n--XyZ\r\nContent-Disposition: form-data; name=\"reply_markup\"\r\n\r\n{\"a\":1}\r\n--XyZ--\r\n";
        let multi = Params::parse(None, Some("multipart/form-data; boundary=XyZ"), body).unwrap();
        for p in [json, form, query, multi] {
            assert_eq!(p.chat_id(), Ok(5));
            assert_eq!(
                p.json::<Value>("reply_markup").unwrap(),
                Some(serde_json::json!({"a": 1}))
            );
        }
    }

    #[test]
    fn multipart_files_arrive_as_bytes() {
        let mut body = b"--B\r\nContent-Disposition: form-data; name=\"chat_id\"\r\n\r\n7\r\n--B\r\nContent-Disposition: form-data; name=\"document\"; filename=\"a.ics\"\r\nContent-Type: text/calendar\r\n\r\n".to_vec();
        body.extend_from_slice(b"BEGIN\r\n\xff\x00--B-not-a-boundary\r\n");
        body.extend_from_slice(b"\r\n--B--\r\n");
        let params = Params::parse(None, Some("multipart/form-data; boundary=B"), &body).unwrap();
        assert_eq!(params.chat_id(), Ok(7));
        let file = params.file("document").expect("the file part");
        assert_eq!(file.file_name, "a.ics");
        assert_eq!(file.content_type.as_deref(), Some("text/calendar"));
        assert_eq!(file.bytes, b"BEGIN\r\n\xff\x00--B-not-a-boundary\r\n");
        assert_eq!(params.str("document").as_deref(), Some("a.ics"));
    }

    #[test]
    fn chat_id_errors() {
        let empty = Params::default();
        assert_eq!(
            empty.chat_id().unwrap_err().description,
            descriptions::CHAT_ID_EMPTY
        );
        let name = Params::parse(Some("chat_id=%40someone"), None, b"").unwrap();
        assert_eq!(
            name.chat_id().unwrap_err().description,
            descriptions::CHAT_NOT_FOUND
        );
    }
}
