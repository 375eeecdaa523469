"""The Lab's experiments: anyone may read them; only the operator starts one."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse

from ..lab import ExperimentRequest
from ..service import Forbidden, NotFound
from .common import ERRORS, Authorization, Service, TheLab, address, limited, token_of

router = APIRouter()


@router.get("/api/lab/experiments", summary="The Lab's experiments, newest first (anyone may read them)")
def experiments(request: Request, lab: TheLab, authorization: Authorization = None) -> dict[str, Any]:
    return {"experiments": [e.to_json() for e in lab.list()],
            "operator": lab.operator(address(request), token_of(authorization, None)), "slots": lab.slots}


@router.post("/api/lab/experiments", status_code=201, responses=ERRORS, dependencies=[Depends(limited("create"))],
             summary="Start an experiment (the operator only: from the server's machine, or with the operator token)")
async def start_experiment(body: ExperimentRequest, request: Request, lab: TheLab, service: Service,
                           authorization: Authorization = None) -> dict[str, Any]:
    if not lab.operator(address(request), token_of(authorization, None)):
        raise Forbidden("web.not_operator")
    if body.kind == "cards":
        await service.cardsets.ensure({f"v{i}": v for i, v in enumerate(body.values) if v})
    return lab.start(body).to_json()


@router.get("/api/lab/experiments/{exp_id}", responses=ERRORS, summary="An experiment's progress")
def experiment(exp_id: str, lab: TheLab) -> dict[str, Any]:
    return lab.get(exp_id).to_json()


@router.get("/api/lab/experiments/{exp_id}/report", responses=ERRORS, include_in_schema=False)
def experiment_report(exp_id: str, lab: TheLab) -> FileResponse:
    path = lab.get(exp_id).report_path()
    if path is None:
        raise NotFound("web.no_experiment", id=exp_id)
    return FileResponse(path, media_type="text/html")
