"""Image recognition (vision LLM): an uploaded image -> a description and keywords for memory (DESIGN §4).

The image travels as an OpenAI `image_url` content part with a data URI, which OpenAI-compatible vision servers
accept; `OpenAIClient` routes such requests to the vision model. Large images are scaled down first: vision
models downsample anyway, and a multi-megabyte base64 body only costs upload time and request-size errors.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

from PIL import Image
from pydantic import BaseModel, Field

from ...errors import InputError
from ...loaders.image import FORMATS, check_pixels
from ..models import ImageDescription, ImageInput
from .client import Message
from .common import PromptedAgent

MAX_SIDE = 1568
MAX_RAW_BYTES = 4_000_000
_DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError)


class ImageReply(BaseModel):
    description: str = Field(min_length=1)
    keywords: list[str] = Field(default_factory=list)


def image_data_uri(path: Path, name: str, max_pixels: int) -> str:
    """The image as a data URI, re-encoded smaller when it is large."""
    try:
        with Image.open(path, formats=FORMATS) as image:
            check_pixels(image.size, name, max_pixels)
            mime = Image.MIME.get(image.format or "", "image/png")
            if max(image.size) <= MAX_SIDE and path.stat().st_size <= MAX_RAW_BYTES:
                data = path.read_bytes()
            else:
                data, mime = _shrunk(image)
    except Image.DecompressionBombError as error:
        raise InputError(f"is too large to decode safely ({error})", source=name) from error
    except _DECODE_ERRORS as error:
        raise InputError(f"cannot be read for recognition ({error})", source=name) from error
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _shrunk(image: Image.Image) -> tuple[bytes, str]:
    copy = image.convert("RGB")
    copy.thumbnail((MAX_SIDE, MAX_SIDE))
    buffer = io.BytesIO()
    copy.save(buffer, format="JPEG", quality=88)
    return buffer.getvalue(), "image/jpeg"


class ImageRecognizer(PromptedAgent):
    name = "image"
    prompt_name = "image"
    max_tokens = 512
    max_string = 1_200

    def run(self, inp: ImageInput) -> ImageDescription:
        uri = image_data_uri(Path(inp.path), inp.name, self._settings.max_image_pixels)
        system, user = self._prompt.render(task_goal=inp.task_goal or "(none given)", name=inp.name)
        vision_user: Message = {"role": "user", "content": [
            {"type": "text", "text": user["content"]},
            {"type": "image_url", "image_url": {"url": uri}},
        ]}
        reply = self._ask_messages([system, vision_user], ImageReply)
        return ImageDescription(description=reply.description, keywords=reply.keywords, method="vision-llm")
