import './upload.policy';
import './upload.type';
import './upload.queries';
import './upload.mutations';
